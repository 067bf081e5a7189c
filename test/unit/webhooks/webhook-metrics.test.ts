/**
 * What the webhook caller counts: each POST it makes, delivered or failed
 * (WebhookAttempts), and a completion webhook given up after its last attempt
 * (WebhookGiveUps), once, not again when that attempt is run a second time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServices, type TestServices } from '../../support/test-services';
import { useMemoryMetrics } from '../../support/memory-metrics';
import { setServices } from '../../../lambdas/platform/services';
import { loadConfig } from '../../../lambdas/platform/config';
import { handler } from '../../../lambdas/webhooks/caller';
import { JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';
import { createFinishedJob } from './support/terminal-job';
import { startReceiver, type Receiver } from './support/receiver';

let t: TestServices;
let receiver: Receiver;
let accountSeq = 0;

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  [t, receiver] = await Promise.all([
    startTestServices({
      config: {
        networkMode: 'local',
        // Two attempts in all: the first, and one retry.
        webhookRetryScheduleSeconds: loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0' }).webhookRetryScheduleSeconds,
        webhookTimeoutMs: 300,
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
const metrics = useMemoryMetrics();

const recorded = () => metrics.sink.recorded.map(({ name, dimensions }) => ({ name, dimensions }));

async function terminalJob() {
  const job = await createFinishedJob(t.services, { accountId: `shop-m${++accountSeq}`, webhook: { url: receiver.url } });
  const event = {
    version: '0',
    id: 'evt-1',
    source: JOB_EVENT_SOURCE,
    'detail-type': JOB_TERMINAL_DETAIL_TYPE,
    detail: { jobId: job.jobId, accountId: job.accountId, status: 'done', outcome: 'pass', hasWebhook: true },
  };
  return { job, event };
}

describe('webhook metrics', () => {
  it('counts a delivered attempt', async () => {
    receiver.script([], 200);
    const { event } = await terminalJob();
    await handler(event);
    expect(recorded()).toEqual([{ name: 'WebhookAttempts', dimensions: { result: 'delivered' } }]);
    expect(metrics.sink.flushes).toBe(1);
  });

  it('counts each failed attempt, and the give-up once, after the last', async () => {
    receiver.script([], 500);
    const { job, event } = await terminalJob();
    await handler(event);
    expect(recorded()).toEqual([{ name: 'WebhookAttempts', dimensions: { result: 'failed' } }]);

    const retry = { mode: 'retry' as const, jobId: job.jobId, accountId: job.accountId, attempt: 2 };
    await expect(handler(retry)).resolves.toMatchObject({ done: true });
    // The last attempt run again (a repeated invocation) finds it recorded: no second give-up.
    await expect(handler(retry)).resolves.toMatchObject({ done: true });
    expect(recorded()).toEqual([
      { name: 'WebhookAttempts', dimensions: { result: 'failed' } },
      { name: 'WebhookAttempts', dimensions: { result: 'failed' } },
      { name: 'WebhookGiveUps', dimensions: {} },
    ]);
    expect(metrics.sink.flushes).toBe(3);
  });
});
