import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';
import { Webhook } from 'standardwebhooks';
import { startTestServices, type TestServices } from '../../support/test-services';
import { setServices } from '../../../lambdas/platform/services';
import { loadConfig } from '../../../lambdas/platform/config';
import { handler, type WebhookRetryOutput } from '../../../lambdas/webhooks/caller';
import { JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';
import type { WebhookDelivery, WebhookTarget } from '../../../lambdas/domain/model';
import type { WebhookRetryInput } from '../../../lambdas/domain/ports';
import { createFinishedJob, type FinishedJob } from './support/terminal-job';
import { startReceiver, type Receiver } from './support/receiver';

const TIMEOUT_MS = 300;
let t: TestServices;
let receiver: Receiver;
let accountSeq = 0;

beforeAll(async () => {
  [t, receiver] = await Promise.all([
    startTestServices({
      config: {
        networkMode: 'local',
        webhookRetryScheduleSeconds: loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0' }).webhookRetryScheduleSeconds,
        webhookTimeoutMs: TIMEOUT_MS,
      },
    }),
    startReceiver(),
  ]);
  setServices(t.services);
});
afterAll(async () => {
  setServices(undefined);
  await Promise.all([t?.stop(), receiver?.close()]);
});
beforeEach(() => {
  t.scheduler.scheduled.length = 0;
  receiver.script([], 200);
});

const finishedJob = (webhook: WebhookTarget | null = { url: receiver.url }): Promise<FinishedJob> =>
  createFinishedJob(t.services, { accountId: `shop-${++accountSeq}`, webhook });

const terminalEvent = (job: FinishedJob) => ({
  version: '0',
  id: 'evt-1',
  source: JOB_EVENT_SOURCE,
  'detail-type': JOB_TERMINAL_DETAIL_TYPE,
  detail: { jobId: job.jobId, accountId: job.accountId, status: 'done', outcome: 'pass', hasWebhook: true },
});

async function deliveries(jobId: string): Promise<WebhookDelivery[]> {
  const graph = await t.services.jobs.getGraphById(jobId);
  return graph?.job.webhook?.deliveries ?? [];
}

/** Runs the real retry state machine for a scheduled retry, its Deliver state calling the caller. */
async function runRetryMachine(input: WebhookRetryInput): Promise<WebhookRetryOutput> {
  const text = readFileSync(fileURLToPath(new URL('../../../step-definitions/webhook-retries.asl.json', import.meta.url)), 'utf8');
  const definition = JSON.parse(text.replace('${WebhookCallerFunctionArn}', 'arn:aws:lambda:us-east-1:000000000000:function:webhook-caller'));
  const machine = new StateMachine(definition);
  const execution = machine.run(input as never, {
    overrides: { taskResourceLocalHandlers: { Deliver: async (event: unknown) => (await handler(event)) as never } },
  });
  return (await execution.result) as unknown as WebhookRetryOutput;
}

describe('the first delivery of a job-terminal event', () => {
  it('POSTs the job.completed payload with a Standard Webhooks signature the account secret verifies', async () => {
    const job = await finishedJob();
    await handler(terminalEvent(job));

    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(`msg_${job.jobId}`);
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(job.webhookSecret).verify(body, headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({ id: job.jobId, type: 'job.completed', status: 'done', outcome: 'pass', orderId: 'A-1' });
    expect((verified.tasks as unknown[])).toHaveLength(1);
    expect(body).not.toMatch(/downloadUrl|X-Amz-Signature/);
  });

  it('is refused by a receiver holding another secret or seeing an altered body', async () => {
    const job = await finishedJob();
    const other = await finishedJob();
    await handler(terminalEvent(job));
    const { headers, body } = receiver.received[0]!;
    expect(() => new Webhook(other.webhookSecret).verify(body, headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(job.webhookSecret).verify(body.replace('"done"', '"error"'), headers as Record<string, string>)).toThrow();
  });

  it('records the delivery and schedules nothing when the receiver answers 2xx', async () => {
    const job = await finishedJob();
    receiver.script([204]);
    await handler(terminalEvent(job));
    const [delivery] = await deliveries(job.jobId);
    expect(delivery).toEqual({ attempt: 1, at: expect.stringMatching(/Z$/), statusCode: 204, durationMs: expect.any(Number), error: null });
    expect(t.scheduler.scheduled).toEqual([]);
  });

  it('schedules attempt 2 after the first delay when the receiver fails', async () => {
    const job = await finishedJob();
    receiver.script([503]);
    await handler(terminalEvent(job));
    expect(await deliveries(job.jobId)).toMatchObject([{ attempt: 1, statusCode: 503, error: 'the receiver answered HTTP 503' }]);
    expect(t.scheduler.scheduled).toEqual([{ jobId: job.jobId, accountId: job.accountId, attempt: 2, delaySeconds: 0 }]);
  });

  it('does nothing for a job without a webhook', async () => {
    const job = await finishedJob(null);
    await handler(terminalEvent(job));
    expect(receiver.received).toHaveLength(0);
    expect(t.scheduler.scheduled).toEqual([]);
  });

  it('does not deliver twice when the same event arrives twice', async () => {
    const job = await finishedJob();
    await handler(terminalEvent(job));
    await handler(terminalEvent(job));
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(job.jobId)).toHaveLength(1);
  });

  it('delivers once when two copies of the same event run at the same moment; the loser fails so that its retry finds the delivery', async () => {
    const job = await finishedJob();
    const runs = await Promise.allSettled([handler(terminalEvent(job)), handler(terminalEvent(job)), handler(terminalEvent(job))]);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(job.jobId)).toHaveLength(1);
    const refused = runs.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.name);
    expect(refused).toEqual(['WebhookAttemptBusyError', 'WebhookAttemptBusyError']);
    // The retry of a loser: the delivery is recorded, nothing is sent again.
    await handler(terminalEvent(job));
    expect(receiver.received).toHaveLength(1);
  });

  it('lets a later run make an attempt whose claim lapsed without a delivery (its run died)', async () => {
    const job = await finishedJob();
    const now = Date.now();
    expect(await t.services.jobs.claimWebhookAttempt(job.jobId, 1, now, now - 1)).toBe(true);
    await handler(terminalEvent(job));
    expect(receiver.received).toHaveLength(1);
    // A claim still running blocks the same attempt.
    const other = await finishedJob();
    expect(await t.services.jobs.claimWebhookAttempt(other.jobId, 1, now, now + 60_000)).toBe(true);
    await expect(handler(terminalEvent(other))).rejects.toMatchObject({ name: 'WebhookAttemptBusyError' });
    expect(receiver.received).toHaveLength(1);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const job = await finishedJob();
    receiver.script(['hang']);
    const started = Date.now();
    await handler(terminalEvent(job));
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
    expect(await deliveries(job.jobId)).toMatchObject([{ attempt: 1, statusCode: null, error: `no response within ${TIMEOUT_MS} ms` }]);
    expect(t.scheduler.scheduled).toHaveLength(1);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const job = await finishedJob();
    receiver.script([{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }]);
    await handler(terminalEvent(job));
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(job.jobId)).toMatchObject([{ attempt: 1, statusCode: 302 }]);
  });

  it('records a URL the network policy refuses as a failed attempt, without calling it', async () => {
    const job = await finishedJob({ url: 'http://10.11.12.13/hook' });
    await handler(terminalEvent(job));
    const [delivery] = await deliveries(job.jobId);
    expect(delivery).toMatchObject({ attempt: 1, statusCode: null, error: expect.stringMatching(/^the URL is not allowed: .*loopback/) });
  });
});

describe('custom headers of the job', () => {
  it('are sent along, but cannot replace the signature headers or the content type', async () => {
    const job = await finishedJob({
      url: receiver.url,
      headers: {
        'X-Shop-Token': 'abc123',
        'Webhook-Signature': 'v1,forged',
        'webhook-id': 'msg_forged',
        'WEBHOOK-TIMESTAMP': '1',
        'Content-Type': 'text/plain',
        'bad header': 'dropped',
      },
    });
    await handler(terminalEvent(job));
    const { headers, body } = receiver.received[0]!;
    expect(headers['x-shop-token']).toBe('abc123');
    expect(headers['webhook-id']).toBe(`msg_${job.jobId}`);
    expect(headers['webhook-signature']).not.toContain('forged');
    expect(headers['content-type']).toBe('application/json');
    expect(() => new Webhook(job.webhookSecret).verify(body, headers as Record<string, string>)).not.toThrow();
  });
});

describe('retries through the retry state machine', () => {
  it('deliver after three failures, with the same webhook-id on every attempt', async () => {
    const job = await finishedJob();
    receiver.script([500, 500, 'hang'], 200);
    await handler(terminalEvent(job));
    const output = await runRetryMachine(t.scheduler.scheduled[0]!);

    expect(output).toMatchObject({ jobId: job.jobId, accountId: job.accountId, done: true });
    const recorded = await deliveries(job.jobId);
    expect(recorded.map((d) => [d.attempt, d.statusCode])).toEqual([[1, 500], [2, 500], [3, null], [4, 200]]);
    expect(recorded[3]!.error).toBeNull();
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${job.jobId}`]));
    for (const r of receiver.received) {
      if (r === receiver.received[2]) continue;
      expect(() => new Webhook(job.webhookSecret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
  });

  it('give up after 8 failed attempts and record that they gave up', async () => {
    const job = await finishedJob();
    receiver.script([], 500);
    await handler(terminalEvent(job));
    const output = await runRetryMachine(t.scheduler.scheduled[0]!);

    expect(output.done).toBe(true);
    expect(receiver.received).toHaveLength(8);
    const recorded = await deliveries(job.jobId);
    expect(recorded.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(recorded.every((d) => d.statusCode === 500)).toBe(true);
    expect(recorded[7]!.error).toBe('the receiver answered HTTP 500; given up after 8 attempts');
    expect(recorded.slice(0, 7).every((d) => !d.error!.includes('given up'))).toBe(true);
  });
});

describe('a retry invocation', () => {
  it('returns the next attempt and its delay for the Wait state', async () => {
    const job = await finishedJob();
    receiver.script([500, 500]);
    await handler(terminalEvent(job));
    const out = await handler({ mode: 'retry', jobId: job.jobId, accountId: job.accountId, attempt: 2 });
    expect(out).toEqual({ jobId: job.jobId, accountId: job.accountId, done: false, attempt: 3, delaySeconds: 0 });
  });

  it('does not deliver an attempt that is already recorded (a repeated Task)', async () => {
    const job = await finishedJob();
    receiver.script([500, 500], 200);
    await handler(terminalEvent(job));
    const first = await handler({ mode: 'retry', jobId: job.jobId, accountId: job.accountId, attempt: 2 });
    const again = await handler({ mode: 'retry', jobId: job.jobId, accountId: job.accountId, attempt: 2 });
    expect(receiver.received).toHaveLength(2);
    expect(again).toMatchObject({ done: false, attempt: 3 });
    expect(first).toMatchObject({ done: false, attempt: 3 });
  });

  it('stops once the job was delivered, and when another run is ahead', async () => {
    const job = await finishedJob();
    receiver.script([500], 200);
    await handler(terminalEvent(job));
    expect(await handler({ mode: 'retry', jobId: job.jobId, accountId: job.accountId, attempt: 2 })).toMatchObject({ done: true });
    expect(await handler({ mode: 'retry', jobId: job.jobId, accountId: job.accountId, attempt: 3 })).toMatchObject({ done: true });
    expect(receiver.received).toHaveLength(2);

    const behind = await finishedJob();
    receiver.script([], 500);
    await handler(terminalEvent(behind));
    await handler({ mode: 'retry', jobId: behind.jobId, accountId: behind.accountId, attempt: 2 });
    await handler({ mode: 'retry', jobId: behind.jobId, accountId: behind.accountId, attempt: 3 });
    const lagging = await handler({ mode: 'retry', jobId: behind.jobId, accountId: behind.accountId, attempt: 2 });
    expect(lagging).toMatchObject({ done: true });
    expect((await deliveries(behind.jobId)).map((d) => d.attempt)).toEqual([1, 2, 3]);
  });

  it('is done for a job that no longer exists', async () => {
    const out = await handler({ mode: 'retry', jobId: 'job_01h00000000000000000000000', accountId: 'gone', attempt: 2 });
    expect(out).toMatchObject({ done: true });
  });
});

describe('events the caller cannot read', () => {
  it('are ignored without throwing', async () => {
    await expect(handler({})).resolves.toBeUndefined();
    await expect(handler(null)).resolves.toBeUndefined();
    expect(receiver.received).toHaveLength(0);
  });
});
