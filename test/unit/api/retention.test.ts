/**
 * Retention (docs/api.md §11 rule 1): a job's `expiresAt` is its creation plus the deployment's
 * period, or its account's own; once past it, the sweep deletes the job as DELETE /jobs/{id}
 * does: records and files go, and a file another job still uses stays.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { expireJobs } from '../../../lambdas/domain/use-cases/expire-jobs';
import { setAccountRetention } from '../../../lambdas/domain/keys';
import { handler as cloudSweep } from '../../../lambdas/retention/sweep';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, call } from './support/api-client';

const DAY_MS = 24 * 3600 * 1000;
const INLINE_FILE = { file: Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64'), steps: [{ type: 'preflight' }] };

let t: TestServices;
// The test moves time on by hand: days pass between creating jobs and sweeping.
let nowMs = Date.parse('2026-11-01T08:00:00.000Z');
const clock = { now: () => new Date(nowMs) };

beforeAll(async () => {
  t = await startTestServices({ clock });
  await t.services.keys.ensureAccount({ id: ACCOUNT_B.accountId, webhookSecret: 'whsec_test', createdAt: clock.now().toISOString() });
});
afterAll(async () => {
  setServices(undefined);
  await t?.stop();
});
beforeEach(() => setServices(t.services));

async function createJob(sources: unknown[], caller = ACCOUNT_A) {
  const res = await call('POST', '/jobs', { caller, body: { sources } });
  expect(res.status).toBe(201);
  return res.body.job as { id: string; createdAt: string; expiresAt: string | null };
}

async function uploadFile(): Promise<{ fileRef: string; key: string }> {
  const res = await call('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: 100 } });
  const key = `${ACCOUNT_A.accountId}/uploads/${res.body.fileRef}`;
  await t.services.blobs.putBytes(key, new Uint8Array(100), 'application/pdf');
  return { fileRef: res.body.fileRef, key };
}

const sweep = () => expireJobs({ ...t.services, orchestrator: t.orchestrator });

describe('expiresAt', () => {
  it("is the job's creation plus the deployment's retention period (30 days by default), on create and on read", async () => {
    const job = await createJob([INLINE_FILE]);
    expect(t.config.retentionDays).toBe(30);
    expect(Date.parse(job.expiresAt!) - Date.parse(job.createdAt)).toBe(30 * DAY_MS);
    const read = await call('GET', `/jobs/${job.id}`);
    expect(read.body.job.expiresAt).toBe(job.expiresAt);
  });

  it("follows the account's own period set with the keys tool, for jobs created from then on", async () => {
    const before = await createJob([INLINE_FILE], ACCOUNT_B);
    await setAccountRetention(t.services.keys, ACCOUNT_B.accountId, 7);
    const after = await createJob([INLINE_FILE], ACCOUNT_B);
    expect(Date.parse(after.expiresAt!) - Date.parse(after.createdAt)).toBe(7 * DAY_MS);
    expect((await call('GET', `/jobs/${before.id}`, { caller: ACCOUNT_B })).body.job.expiresAt).toBe(before.expiresAt);

    await setAccountRetention(t.services.keys, ACCOUNT_B.accountId, null);
    const reset = await createJob([INLINE_FILE], ACCOUNT_B);
    expect(Date.parse(reset.expiresAt!) - Date.parse(reset.createdAt)).toBe(30 * DAY_MS);
  });

  it('refuses an account period that is not whole days from 1 to 3650, or an account that does not exist', async () => {
    for (const days of [0, 1.5, 3651]) await expect(setAccountRetention(t.services.keys, ACCOUNT_B.accountId, days)).rejects.toThrow(/whole number of days/);
    await expect(setAccountRetention(t.services.keys, 'no-such-account', 5)).rejects.toThrow(/no account/);
  });
});

describe('the retention sweep', () => {
  it("deletes an expired job with its files, keeps a shared upload's file while a live job uses it, and lets it go with the last one", async () => {
    const upload = await uploadFile();
    const first = await createJob([INLINE_FILE, { fileRef: upload.fileRef, steps: [{ type: 'preflight' }] }]);
    const firstGraph = (await t.services.jobs.getGraph(ACCOUNT_A.accountId, first.id))!;
    const inlineKey = (firstGraph.tasks[0]!.locator as { key: string }).key;
    expect(await t.services.blobs.head(inlineKey)).not.toBeNull();

    // Within the upload's hour, while its fileRef may still start jobs.
    nowMs += 30 * 60 * 1000;
    const second = await createJob([{ fileRef: upload.fileRef, steps: [{ type: 'validate' }] }]);

    // Not yet: a second before the first job's expiry nothing is deleted.
    nowMs = Date.parse(first.expiresAt!) - 1000;
    expect((await sweep()).deleted).not.toContain(first.id);

    nowMs = Date.parse(first.expiresAt!);
    const report = await sweep();
    expect(report.deleted).toContain(first.id);
    expect(report.deleted).not.toContain(second.id);
    expect(report.failed).toEqual([]);
    const gone = await call('GET', `/jobs/${first.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: true, code: 'not_found' });
    expect(await t.services.blobs.head(inlineKey)).toBeNull();
    // The second job still reads the upload's file.
    expect(await t.services.blobs.head(upload.key)).not.toBeNull();
    expect((await call('GET', `/jobs/${second.id}`)).status).toBe(200);

    nowMs = Date.parse(second.expiresAt!);
    expect((await sweep()).deleted).toContain(second.id);
    expect((await call('GET', `/jobs/${second.id}`)).status).toBe(404);
    // No job refers to it and its fileRef expired long ago: the file is gone too.
    expect(await t.services.blobs.head(upload.key)).toBeNull();
  });

  it("runs in the cloud as the scheduled function's handler, which says how many jobs it deleted", async () => {
    const job = await createJob([INLINE_FILE]);
    nowMs = Date.parse(job.expiresAt!);
    expect(await cloudSweep()).toEqual({ deleted: 1, failed: [] });
    expect((await call('GET', `/jobs/${job.id}`)).status).toBe(404);
  });

  it('leaves jobs created before retention existed (no expiresAt) alone', async () => {
    const job = await createJob([INLINE_FILE]);
    const { expiresAt: _dropped, ...legacy } = (await t.services.jobs.getJob(ACCOUNT_A.accountId, job.id))!;
    // Stored again without the field, as the job item of an older version.
    await t.services.jobs.deleteJob(job.id);
    const graph = (await t.services.jobs.getGraphById(job.id)) ?? { tasks: [], steps: [] };
    await t.services.jobs.createJob({ ...graph, job: legacy });
    // Twice the default period (a sweep reads each day since the last, so the jump is kept short).
    nowMs += 60 * DAY_MS;
    expect((await sweep()).deleted).not.toContain(job.id);
    expect((await call('GET', `/jobs/${job.id}`)).body.job.expiresAt).toBeNull();
  });
});
