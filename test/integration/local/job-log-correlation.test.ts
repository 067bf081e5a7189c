/**
 * Correlation (issue 18): a job's id finds every line of it, from the API
 * request that created it, through the pipeline's workers (in their own
 * threads, whose lines reach this process's stdout), to the webhook delivery;
 * the local runtime writes one access line per HTTP request, a refused one
 * included; and no line carries the API key or the webhook secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../../local/runtime';
import { buildPdf } from '../../support/pdf-fixtures';
import { captureLogLines, type CapturedLog, type LogLine } from '../../support/log-lines';
import { webhookReceiver, type Receiver } from '../../e2e/support/webhook-receiver';

let runtime: LocalRuntime;
let log: CapturedLog;
let receiver: Receiver;

beforeAll(async () => {
  log = captureLogLines();
  runtime = await startLocalRuntime({ port: 0, storagePort: 0, inMemory: true, quiet: true, env: { WEBHOOK_RETRY_SCHEDULE: '0,0', WEBHOOK_TIMEOUT_MS: '2000' } });
  receiver = await webhookReceiver(runtime.webhookSecret);
});
afterAll(async () => {
  await receiver?.close();
  await runtime?.stop();
  log?.restore();
});

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a job's log lines", () => {
  it('are found by its id from the create request through ingest, the step and finalise to the webhook delivery, and never carry the key', async () => {
    const pdf = Buffer.from(await buildPdf({ pages: 1 })).toString('base64');
    const res = await fetch(`${runtime.url}/jobs/preflight`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: { url: receiver.url }, sources: [{ file: pdf }] }),
    });
    expect(res.status).toBe(201);
    const createRequestId = res.headers.get('x-request-id');
    const jobId = ((await res.json()) as { job: { id: string } }).job.id;

    await receiver.waitFor(1, 120_000);
    const ofJob = (): LogLine[] => log.lines().filter((line) => line.jobId === jobId);
    await until('the webhook delivery line', () => ofJob().some((line) => line.message === 'webhook attempt'));
    const lines = ofJob();

    expect(lines.find((l) => l.message === 'job created')).toMatchObject({ requestId: createRequestId, accountId: 'local', function_name: 'proofline-local-create-preflight-job' });
    expect(lines.find((l) => l.worker === 'ingest')).toMatchObject({ level: 'INFO', result: 'running', taskId: expect.any(String) });
    expect(lines.find((l) => l.worker === 'preflight')).toMatchObject({ level: 'INFO', result: 'done', stepId: expect.any(String), function_name: 'proofline-local-Preflight' });
    expect(lines.find((l) => l.worker === 'finalise')).toMatchObject({ level: 'INFO', result: 'finalised' });
    expect(lines.find((l) => l.message === 'webhook attempt')).toMatchObject({ level: 'INFO', attempt: 1, done: true, why: 'delivered' });
    // The create request's access line is found by its request id.
    expect(log.lines().find((l) => l.component === 'access' && l.requestId === createRequestId)).toMatchObject({ method: 'POST', path: '/jobs/preflight', status: 201, accountId: 'local', ms: expect.any(Number) });

    expect(log.text()).not.toContain(runtime.apiKey);
    expect(log.text()).not.toContain(runtime.webhookSecret);
  }, 240_000);

  it('include an access line for a request refused with 401, without the key it tried', async () => {
    const wrongKey = `${runtime.apiKey}x`;
    const res = await fetch(`${runtime.url}/jobs?limit=5`, { headers: { Authorization: `Bearer ${wrongKey}` } });
    expect(res.status).toBe(401);
    const requestId = res.headers.get('x-request-id');
    const line = await until('the access line', () => log.lines().find((l) => l.component === 'access' && l.requestId === requestId));
    expect(line).toMatchObject({ level: 'INFO', message: 'GET /jobs 401', method: 'GET', path: '/jobs', status: 401 });
    expect(line).not.toHaveProperty('accountId');
    expect(log.text()).not.toContain(wrongKey);
  });
});
