/**
 * docs/api.md §2 (review), §8 (keys and accounts): isolation between accounts,
 * admin-only review, revocation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectErrorShape, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { keysCli } from './support/global-setup';
import { target } from './support/target';

describe.skipIf(!target().otherKey)('one account never sees another account’s data', () => {
  let job: any;
  beforeAll(async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ file: await onePagePdfBase64() }] } });
    job = await waitForJob(res.body.job.id);
  });

  it('GET, expand=runs, review and DELETE of another account’s job are 404', async () => {
    const other = target().otherKey!;
    expectErrorShape(await api('GET', `/jobs/${job.id}`, { key: other }), 404, 'not_found');
    expectErrorShape(await api('GET', `/jobs/${job.id}?expand=runs`, { key: other }), 404, 'not_found');
    expectErrorShape(await api('DELETE', `/jobs/${job.id}`, { key: other }), 404, 'not_found');
    expect((await api('GET', `/jobs/${job.id}`)).status).toBe(200);
  });

  it('GET /jobs lists only the caller’s jobs', async () => {
    const mine = await api('GET', '/jobs?limit=100');
    expect(mine.body.jobs.map((j: any) => j.id)).toContain(job.id);
    const theirs = await api('GET', '/jobs?limit=100', { key: target().otherKey });
    expect(theirs.body.jobs.map((j: any) => j.id)).not.toContain(job.id);
  });
});

describe('POST /jobs/{id}/review', () => {
  let failed: any;
  beforeAll(async () => {
    // One-page PDF with an unembedded font: fails the default profile.
    const res = await api('POST', '/jobs', { body: { policy: { onFail: 'manual_review' }, sources: [{ file: await onePagePdfBase64(), steps: [{ type: 'preflight' }] }] } });
    failed = await waitForJob(res.body.job.id);
    expect(failed.outcome).toBe('fail');
    expect(failed.canProceed).toBe(false);
  });

  it('is refused to a standard key (403 forbidden)', async () => {
    expectErrorShape(await api('POST', `/jobs/${failed.id}/review`, { body: { decision: 'approve' } }), 403, 'forbidden');
  });

  it.skipIf(!target().adminKey)('an admin approves once; canProceed turns true and the decision is recorded', async () => {
    const admin = target().adminKey!;
    const bad = await api('POST', `/jobs/${failed.id}/review`, { key: admin, body: { decision: 'maybe' } });
    expectErrorShape(bad, 400, 'validation_error');
    expect(bad.body.param).toBe('decision');

    const res = await api('POST', `/jobs/${failed.id}/review`, { key: admin, body: { decision: 'approve', note: 'customer accepted the risk' } });
    expect(res.status).toBe(200);
    expect(res.body.job.canProceed).toBe(true);
    expect(res.body.job.review).toMatchObject({ decision: 'approve', note: 'customer accepted the risk' });
    expect(res.body.job.review.keyId).toMatch(/^key_/);
    expect(res.body.job.review.at).toMatch(/Z$/);
    expectErrorShape(await api('POST', `/jobs/${failed.id}/review`, { key: admin, body: { decision: 'reject' } }), 409, 'already_reviewed');
  });

  it.skipIf(!target().adminKey)('only applies to manual_review jobs', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sync: true, sources: [{ file: await onePagePdfBase64() }] } });
    const r = await api('POST', `/jobs/${res.body.job.id}/review`, { key: target().adminKey!, body: { decision: 'approve' } });
    expectErrorShape(r, 409, 'review_not_applicable');
  });
});

describe.skipIf(!target().local)('keys command against the running local runtime', () => {
  it('creates, lists and revokes keys; a revoked key stops working within the cache window', async () => {
    const { dataDir, port } = target();
    const created = await keysCli(dataDir!, port!, ['create', '--account', 'revocable']);
    expect(Object.keys(created).sort()).toEqual(['account', 'id', 'key', 'webhookSecret']);
    expect(created.key).toMatch(/^sk_(live|test)_[0-9A-Za-z]+$/);
    expect(created.webhookSecret).toMatch(/^whsec_/);
    expect((await api('GET', '/jobs', { key: created.key })).status).toBe(200);

    const listed = await keysCli(dataDir!, port!, ['list', '--account', 'revocable']);
    const entries = Array.isArray(listed) ? listed : listed.keys;
    expect(entries.map((k: any) => k.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.key); // only hashes are stored

    await keysCli(dataDir!, port!, ['revoke', created.id]);
    await new Promise((r) => setTimeout(r, target().revocationWindowMs));
    expectErrorShape(await api('GET', '/jobs', { key: created.key }), 401, 'unauthorized');
  });
});
