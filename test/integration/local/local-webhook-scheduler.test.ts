import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerId } from '../../../step-definitions/workers';
import { createLocalWebhookScheduler } from '../../../lambdas/adapters/local/local-webhook-scheduler';

type Call = { worker: WorkerId; input: Record<string, unknown> };

/** A fake webhook caller that fails until `succeedOnAttempt`, asking for `delaySeconds` between tries. */
function fakeCaller(succeedOnAttempt: number, delaySeconds = 0) {
  const calls: Call[] = [];
  const invoke = async (worker: WorkerId, input: unknown) => {
    const i = input as { jobId: string; accountId: string; attempt: number };
    calls.push({ worker, input: i });
    const done = i.attempt >= succeedOnAttempt;
    return { jobId: i.jobId, accountId: i.accountId, done, attempt: done ? i.attempt : i.attempt + 1, delaySeconds: done ? 0 : delaySeconds };
  };
  return { calls, invoke };
}

describe('the local webhook scheduler running the real retry state machine', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'proofline-retries-')); });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('waits, calls the webhook caller’s Deliver with mode retry, and loops until delivered', async () => {
    const { calls, invoke } = fakeCaller(4);
    const scheduler = createLocalWebhookScheduler({ invoke, log: () => {} });
    await scheduler.scheduleRetry({ jobId: 'job_1', accountId: 'acct', attempt: 2, delaySeconds: 0 });
    await scheduler.whenIdle();
    expect(calls).toEqual([
      { worker: 'webhookCaller', input: { mode: 'retry', jobId: 'job_1', accountId: 'acct', attempt: 2 } },
      { worker: 'webhookCaller', input: { mode: 'retry', jobId: 'job_1', accountId: 'acct', attempt: 3 } },
      { worker: 'webhookCaller', input: { mode: 'retry', jobId: 'job_1', accountId: 'acct', attempt: 4 } },
    ]);
  });

  it('honours the delay before each attempt', async () => {
    const { calls, invoke } = fakeCaller(2);
    const scheduler = createLocalWebhookScheduler({ invoke, log: () => {} });
    const started = Date.now();
    await scheduler.scheduleRetry({ jobId: 'job_2', accountId: 'acct', attempt: 2, delaySeconds: 1 });
    expect(calls).toEqual([]);
    await scheduler.whenIdle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls).toHaveLength(1);
  });

  it('keeps pending retries on disk and resumes them with the next attempt after a restart', async () => {
    const stateFile = join(dir, 'webhook-retries.json');
    const first = fakeCaller(99, 3600);
    const before = createLocalWebhookScheduler({ invoke: first.invoke, stateFile, log: () => {} });
    await before.scheduleRetry({ jobId: 'job_3', accountId: 'acct', attempt: 2, delaySeconds: 0 });
    await new Promise((r) => setTimeout(r, 100));
    expect(first.calls).toHaveLength(1);
    await before.stopAll();

    const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(saved).toHaveLength(1);
    expect(saved[0].state).toMatchObject({ jobId: 'job_3', attempt: 3, delaySeconds: 3600 });

    // Pretend the hour has passed.
    saved[0].dueAt = Date.now() - 1;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(stateFile, JSON.stringify(saved));

    const second = fakeCaller(3);
    const after = createLocalWebhookScheduler({ invoke: second.invoke, stateFile, log: () => {} });
    expect(await after.resume()).toBe(1);
    await after.whenIdle();
    expect(second.calls).toEqual([{ worker: 'webhookCaller', input: { mode: 'retry', jobId: 'job_3', accountId: 'acct', attempt: 3 } }]);
    expect(existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : []).toEqual([]);
  });

  it('gives up a retry whose delivery throws, as the cloud execution would fail', async () => {
    const scheduler = createLocalWebhookScheduler({ invoke: async () => { throw new Error('caller crashed'); }, log: () => {} });
    await scheduler.scheduleRetry({ jobId: 'job_4', accountId: 'acct', attempt: 2, delaySeconds: 0 });
    await scheduler.whenIdle();
    expect(scheduler.pending()).toEqual([]);
  });
});
