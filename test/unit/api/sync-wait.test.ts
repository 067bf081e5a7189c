import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { ANSWER_MARGIN_MS, syncWaitLeft } from '../../../lambdas/api/sync-wait';
import { startTestServices, type TestServices } from '../../support/test-services';
import { call } from './support/api-client';

describe('syncWaitLeft: the sync wait counts from the request’s arrival (docs/api.md §11 rule 9)', () => {
  const now = 1_800_000_000_000;

  it('is the whole wait when the job is created the moment the request arrives', () => {
    expect(syncWaitLeft({ waitMs: 27_000, arrivedAtMs: now, nowMs: now })).toBe(27_000);
  });

  it('loses what a slow creation (cold start, large body) already spent', () => {
    expect(syncWaitLeft({ waitMs: 27_000, arrivedAtMs: now - 20_000, nowMs: now })).toBe(7_000);
    expect(syncWaitLeft({ waitMs: 27_000, arrivedAtMs: now - 30_000, nowMs: now })).toBe(0);
  });

  it('never outlasts the function’s remaining time, keeping time to answer', () => {
    expect(syncWaitLeft({ waitMs: 27_000, arrivedAtMs: now, nowMs: now, remainingMs: 10_000 })).toBe(10_000 - ANSWER_MARGIN_MS);
    expect(syncWaitLeft({ waitMs: 27_000, arrivedAtMs: now, nowMs: now, remainingMs: 1_000 })).toBe(0);
  });

  it('counts from now when the arrival is unknown or in the future (clock skew)', () => {
    expect(syncWaitLeft({ waitMs: 5_000, nowMs: now })).toBe(5_000);
    expect(syncWaitLeft({ waitMs: 5_000, arrivedAtMs: now + 60_000, nowMs: now })).toBe(5_000);
  });
});

describe('a sync submission answers with the job within the wait counted from arrival', () => {
  let t: TestServices;
  beforeAll(async () => {
    t = await startTestServices();
  });
  afterAll(() => t?.stop());

  const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';
  // No pipeline runs in these tests: the job stays pending, so every sync answer is the 202 with the job.

  it('answers 202 { job, pending } at once when the request arrived a whole wait ago: the client always gets the job id', async () => {
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 3_000 } });
    const started = Date.now();
    const res = await call('POST', '/jobs/preflight', { arrivedAt: started - 3_000, body: { sync: true, sources: [{ url: URL_SOURCE }] } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ pending: true, job: { id: expect.stringMatching(/^job_/) } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('waits only what is left of the wait after a slow arrival', async () => {
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 2_000 } });
    const started = Date.now();
    const res = await call('POST', '/jobs/validate', { arrivedAt: started - 1_200, body: { sources: [{ url: URL_SOURCE, profile: '2b' }] } });
    const took = Date.now() - started;
    expect(res.status).toBe(202);
    expect(took).toBeGreaterThanOrEqual(700);
    expect(took).toBeLessThan(1_700);
  });

  it('answers before the function’s own timeout, whatever SYNC_WAIT_MS says', async () => {
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 27_000 } });
    const started = Date.now();
    const res = await call('POST', '/jobs', { remainingMs: ANSWER_MARGIN_MS + 500, body: { sync: true, sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(ANSWER_MARGIN_MS + 500);
  });
});
