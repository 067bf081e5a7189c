import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import type { OnFail } from '../../../lambdas/domain/model';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, ADMIN_A, call } from './support/api-client';
import { finishJob, type StandInOptions } from './support/pipeline-stand-in';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => setServices(t.services));

async function job(onFail: OnFail, finish: StandInOptions | false = { verdict: 'fail' }): Promise<string> {
  const res = await call('POST', '/jobs', { body: { policy: { onFail }, sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } });
  const id = res.body.job.id as string;
  if (finish) await finishJob(t.services, ACCOUNT_A.accountId, id, finish);
  return id;
}

const review = (id: string, body: unknown, caller = ADMIN_A) => call('POST', `/jobs/${id}/review`, { caller, body });

describe('POST /jobs/{id}/review', () => {
  it('lets an admin approve a failed job under manual review, which can then proceed', async () => {
    const id = await job('manual_review');
    expect((await call('GET', `/jobs/${id}`)).body.job).toMatchObject({ outcome: 'fail', canProceed: false });
    const res = await review(id, { decision: 'approve', note: 'Customer accepts.' });
    expect(res.status).toBe(200);
    expect(res.body.job.canProceed).toBe(true);
    expect(res.body.job.review).toEqual({ decision: 'approve', note: 'Customer accepts.', at: expect.any(String), keyId: ADMIN_A.keyId });
    expect((await call('GET', `/jobs/${id}`)).body.job.review.decision).toBe('approve');
  });

  it('keeps a rejected job from proceeding, even one that passed', async () => {
    const id = await job('manual_review', { verdict: 'pass' });
    const res = await review(id, { decision: 'reject' });
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ canProceed: false, review: { decision: 'reject', note: null } });
  });

  it('refuses keys without the admin role with 403 forbidden', async () => {
    const id = await job('manual_review');
    const res = await review(id, { decision: 'approve' }, ACCOUNT_A);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('answers 409 job_not_terminal while the job runs', async () => {
    const id = await job('manual_review', false);
    const res = await review(id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('job_not_terminal');
  });

  it('answers 409 review_not_applicable when the policy is not manual_review', async () => {
    const id = await job('reject');
    const res = await review(id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('review_not_applicable');
  });

  it('answers 409 already_reviewed to a second decision and keeps the first', async () => {
    const id = await job('manual_review');
    expect((await review(id, { decision: 'approve' })).status).toBe(200);
    const second = await review(id, { decision: 'reject' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('already_reviewed');
    expect((await call('GET', `/jobs/${id}`)).body.job).toMatchObject({ canProceed: true, review: { decision: 'approve' } });
  });

  it("answers 404 for another account's job, even to an admin", async () => {
    const res = await call('POST', '/jobs', { caller: ACCOUNT_B, body: { policy: { onFail: 'manual_review' }, sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } });
    const other = await review(res.body.job.id, { decision: 'approve' });
    expect(other.status).toBe(404);
  });

  it('validates the decision and refuses unknown fields', async () => {
    const id = await job('manual_review');
    expect((await review(id, { decision: 'maybe' })).body).toMatchObject({ code: 'validation_error', param: 'decision' });
    expect((await review(id, { decision: 'approve', by: 'me' })).body).toMatchObject({ code: 'validation_error', param: 'by' });
    expect((await review(id, {})).body).toMatchObject({ code: 'validation_error', param: 'decision', message: 'decision: is required' });
  });
});
