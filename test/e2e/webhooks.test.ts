/**
 * docs/api.md §9: the completion webhook — Standard Webhooks signature with the
 * account's secret, retries on the (here compressed) schedule, every attempt
 * recorded on the job. Loopback receivers are allowed by the local runtime only.
 */
import { describe, expect, it } from 'vitest';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { webhookReceiver } from './support/webhook-receiver';
import { target } from './support/target';

async function jobWithWebhook(webhook: unknown) {
  const res = await api('POST', '/jobs/preflight', { body: { webhook, metaData: { order: 42 }, sources: [{ file: await onePagePdfBase64(), clientRef: 'l1' }] } });
  expect(res.status).toBe(201);
  return res.body.job.id as string;
}

async function deliveriesOf(id: string, count: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await api('GET', `/jobs/${id}`)).body.job;
    if ((job.webhook?.deliveries ?? []).length >= count || Date.now() > deadline) return job.webhook;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!target().local)('completion webhooks', () => {
  it('POSTs job.completed, signed with the account secret, with the requested headers and no presigned URLs', async () => {
    const rx = await webhookReceiver(target().webhookSecret!);
    try {
      const id = await jobWithWebhook({ url: rx.url, headers: { 'x-shop': 'demo', 'webhook-signature': 'forged' } });
      const [hit] = await rx.waitFor(1);
      expect(hit!.signatureError).toBeNull();
      expect(hit!.headers['x-shop']).toBe('demo');
      expect(hit!.headers['webhook-id']).toBeTruthy();
      expect(Number(hit!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
      const body = hit!.json;
      expect(body.type).toBe('job.completed');
      expect(body).toMatchObject({ id, status: 'done', metaData: { order: 42 } });
      for (const k of ['outcome', 'canProceed', 'ruleId', 'channel', 'customerId', 'orderId', 'policy', 'taskIds', 'created', 'finalized']) expect(body).toHaveProperty(k);
      expect(body.tasks[0]).toMatchObject({ clientRef: 'l1', fileType: 'pdf' });
      expect(body.tasks[0].steps[0]).toHaveProperty('ended');
      expect(hit!.body).not.toMatch(/X-Amz-Signature|downloadUrl/);

      const webhook = await deliveriesOf(id, 1);
      expect(webhook.url).toBe(rx.url);
      expect(webhook.headers).toBeUndefined();
      expect(webhook.deliveries[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
      expect(webhook.deliveries[0].durationMs).toBeGreaterThanOrEqual(0);
    } finally {
      await rx.close();
    }
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const rx = await webhookReceiver(target().webhookSecret!, (n) => (n <= 3 ? 503 : 204));
    try {
      const id = await jobWithWebhook(rx.url);
      const hits = await rx.waitFor(4);
      expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
      expect(hits.every((h) => h.signatureError === null)).toBe(true);
      const webhook = await deliveriesOf(id, 4);
      expect(webhook.deliveries.map((d: any) => [d.attempt, d.statusCode])).toEqual([[1, 503], [2, 503], [3, 503], [4, 204]]);
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.received).toHaveLength(4);
    } finally {
      await rx.close();
    }
  });

  it('gives up after the first attempt and seven retries; a timeout counts as a failed attempt', async () => {
    const rx = await webhookReceiver(target().webhookSecret!, (n) => (n === 1 ? 'hang' : 500));
    try {
      const id = await jobWithWebhook(rx.url);
      await rx.waitFor(8, 60_000);
      const webhook = await deliveriesOf(id, 8);
      expect(webhook.deliveries.map((d: any) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(webhook.deliveries[0].statusCode).toBeNull();
      expect(webhook.deliveries[0].error).toMatch(/no response within \d+ ms/);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.received).toHaveLength(8);
    } finally {
      await rx.close();
    }
  });

  it('refuses a webhook URL that is not http(s) to loopback here', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { webhook: 'ftp://127.0.0.1/hook', sources: [{ file: await onePagePdfBase64() }] } });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('webhook.url');
  });
});

describe.skipIf(!target().local)('URL sources', () => {
  it('fetches a source from a URL and records it', async () => {
    const { fileServer } = await import('./support/source-server');
    const { onePagePdfBytes } = await import('./support/files');
    const server = await fileServer(await onePagePdfBytes());
    try {
      const res = await api('POST', '/jobs', { body: { sources: [{ url: server.url, headers: { authorization: 'Bearer shop-token' }, steps: [{ type: 'preflight' }] }] } });
      const job = await waitForJob(res.body.job.id);
      expect(job.status).toBe('done');
      expect(job.tasks[0].source).toBe(server.url);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer shop-token');
      expect(job.tasks[0].audit.map((e: any) => e.event)).toContain('source.fetched');
    } finally {
      await server.close();
    }
  });

  it('a source URL that fails ends the task in error with the reason', async () => {
    const { fileServer } = await import('./support/source-server');
    const server = await fileServer(new Uint8Array(), 404, {});
    try {
      const res = await api('POST', '/jobs/preflight', { body: { sources: [{ url: server.url }] } });
      const job = await waitForJob(res.body.job.id);
      expect(job.status).toBe('error');
      expect(job.tasks[0].reason).toMatch(/404/);
    } finally {
      await server.close();
    }
  });
});
