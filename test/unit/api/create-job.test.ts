import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { jobPrefix } from '../../../lambdas/domain/blob-keys';
import { isId } from '../../../lambdas/domain/ids';
import { jobEnvelope, pendingJobEnvelope } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, call } from './support/api-client';
import { finishJob } from './support/pipeline-stand-in';
import { captureLogLines } from '../../support/log-lines';

const PDF_B64 = Buffer.from('%PDF-1.7\n%test\n').toString('base64');
const URL_SOURCE = 'http://127.0.0.1:9/files/card.pdf';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices({ config: { syncWaitMs: 300 } });
});
afterAll(() => t?.stop());
beforeEach(() => {
  setServices({ ...t.services, orchestrator: t.orchestrator, config: { ...t.config, syncWaitMs: 300 } });
  t.orchestrator.started.length = 0;
  t.orchestrator.stopped.length = 0;
});

/** How many objects were under the prefix (the BlobStore port cannot list; deleting reports the count). */
async function objectsUnder(prefix: string): Promise<number> {
  return t.services.blobs.deletePrefix(prefix);
}

describe('POST /jobs (async, the default)', () => {
  it('creates the job, its tasks and steps and answers 201 { job } with status pending', async () => {
    const res = await call('POST', '/jobs', {
      body: {
        sources: [
          { url: URL_SOURCE, headers: { Authorization: 'Bearer x' }, clientRef: 'line-1', steps: [{ type: 'preflight', params: { profileId: 'default' } }, { type: 'previews', params: { dpi: 50, extra: 'kept' } }] },
          { file: PDF_B64, name: 'flyer.pdf', steps: [{ type: 'validate', params: { profile: ['2b', 'ua1'] } }] },
        ],
        ruleId: 'rule_abc-1',
        channel: 'store',
        orderId: 'o-1',
        customerId: 'c-1',
        customerEmail: 'shop@example.com',
        policy: { onFail: 'manual_review' },
        context: { bleed: { required_mm: 3 }, pageCount: { min: 1, max: 2 } },
        metaData: { anything: { nested: [1, 2] } },
        webhook: { url: 'http://127.0.0.1:9/hook', headers: { 'X-Secret': 'hush' } },
      },
    });
    expect(res.status).toBe(201);
    expect(jobEnvelope.safeParse(res.body).success).toBe(true);
    const job = res.body.job;
    expect(isId('job', job.id)).toBe(true);
    expect(job).toMatchObject({
      status: 'pending',
      outcome: null,
      canProceed: null,
      ruleId: 'rule_abc-1',
      channel: 'store',
      orderId: 'o-1',
      customerId: 'c-1',
      customerEmail: 'shop@example.com',
      policy: { onFail: 'manual_review' },
      metaData: { anything: { nested: [1, 2] } },
      workflowId: `local:${job.id}`,
      deliverables: [],
      webhook: { url: 'http://127.0.0.1:9/hook', deliveries: [] },
    });
    expect(job.summary).toBeUndefined();
    expect(job.results).toBeUndefined();
    expect(res.raw).not.toContain('hush');
    expect(job.tasks).toHaveLength(2);
    expect(job.tasks[0]).toMatchObject({ source: URL_SOURCE, clientRef: 'line-1', status: 'pending', fileRef: null, jobId: job.id });
    expect(job.tasks[1]).toMatchObject({ source: 'flyer.pdf', name: 'flyer.pdf', clientRef: null });
    expect(job.tasks[0].steps.map((s: { type: string }) => s.type)).toEqual(['preflight', 'previews']);
    expect(job.tasks[0].steps[1].params).toEqual({ dpi: 50, extra: 'kept' });
    expect(job.tasks[1].steps[0].params).toEqual({ profile: ['2b', 'ua1'] });

    const stored = await t.services.jobs.getGraph(ACCOUNT_A.accountId, job.id);
    expect(stored?.job).toMatchObject({ endpoint: 'jobs', keyId: ACCOUNT_A.keyId, workflowId: `local:${job.id}`, context: { bleed: { required_mm: 3 } } });
    expect(stored?.job.webhook?.headers).toEqual({ 'X-Secret': 'hush' });
    expect(stored?.tasks[0]?.locator).toEqual({ kind: 'url', url: URL_SOURCE, headers: { Authorization: 'Bearer x' } });
  });

  it('writes base64 files to storage before the pipeline starts, which receives references only', async () => {
    let seenAtStart: number | null = null;
    const svc = { ...t.services, orchestrator: { ...t.orchestrator, startJob: async (input: Parameters<typeof t.orchestrator.startJob>[0]) => {
      const graph = await t.services.jobs.getGraphById(input.jobId);
      const locator = graph!.tasks[0]!.locator;
      seenAtStart = locator.kind === 'inline' ? (await t.services.blobs.head(locator.key))?.sizeBytes ?? null : null;
      return t.orchestrator.startJob(input);
    } } };
    setServices(svc);
    const res = await call('POST', '/jobs', { body: { sources: [{ file: PDF_B64, steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(201);
    expect(seenAtStart).toBe(Buffer.from(PDF_B64, 'base64').length);
    const input = t.orchestrator.started.at(-1)!;
    const task = res.body.job.tasks[0];
    expect(input).toEqual({
      jobId: res.body.job.id,
      accountId: ACCOUNT_A.accountId,
      tasks: [{ taskId: task.id, steps: [{ stepId: task.steps[0].id, type: 'preflight', index: 0 }] }],
    });
    expect(JSON.stringify(input)).not.toContain(PDF_B64);
    const stored = await t.services.jobs.getGraph(ACCOUNT_A.accountId, res.body.job.id);
    expect(stored!.tasks[0]!.locator).toEqual({
      kind: 'inline',
      key: `${ACCOUNT_A.accountId}/jobs/${res.body.job.id}/${task.id}/source/original`,
      sizeBytes: Buffer.from(PDF_B64, 'base64').length,
    });
    expect(task.source).toBe('file-1');
  });

  it('leaves nothing behind and answers 503 when the pipeline cannot be started', async () => {
    const log = captureLogLines();
    let jobId = '';
    setServices({ ...t.services, orchestrator: { startJob: async (input) => { jobId = input.jobId; throw new Error('sfn down'); }, continueJob: async () => 'unused', stop: async () => {} } });
    const res = await call('POST', '/jobs', { body: { sources: [{ file: PDF_B64, steps: [{ type: 'preflight' }] }] } });
    log.restore();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: true, code: 'service_unavailable' });
    // The operator's line: at level error, with the job's id and the reason.
    expect(log.lines()).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'job creation failed; undoing', jobId, error: expect.objectContaining({ message: 'sfn down' }) }));
    expect(await t.services.jobs.getGraphById(jobId)).toBeNull();
    expect(await objectsUnder(jobPrefix(ACCOUNT_A.accountId, jobId))).toBe(0);
  });

  it('stops the execution it started when recording the workflow id fails, and deletes everything', async () => {
    const log = captureLogLines();
    const stopped: string[] = [];
    let jobId = '';
    const jobs = { ...t.services.jobs, patchJob: async () => { throw new Error('table throttled'); } };
    setServices({ ...t.services, jobs, orchestrator: { startJob: async (input) => { jobId = input.jobId; return `wf-${input.jobId}`; }, continueJob: async () => 'unused', stop: async (id) => { stopped.push(id); } } });
    const res = await call('POST', '/jobs', { body: { sources: [{ file: PDF_B64, steps: [{ type: 'preflight' }] }] } });
    log.restore();
    expect(res.status).toBe(503);
    expect(stopped).toEqual([`wf-${jobId}`]);
    expect(await t.services.jobs.getGraphById(jobId)).toBeNull();
    expect(await objectsUnder(jobPrefix(ACCOUNT_A.accountId, jobId))).toBe(0);
  });

  it('accepts a bare webhook URL string', async () => {
    const res = await call('POST', '/jobs', { body: { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }], webhook: 'http://localhost:8080/hook' } });
    expect(res.status).toBe(201);
    expect(res.body.job.webhook).toEqual({ url: 'http://localhost:8080/hook', deliveries: [] });
  });
});

describe('POST /jobs (sync)', () => {
  it('answers 202 { job, pending: true } when the job is not terminal within SYNC_WAIT_MS', async () => {
    const started = Date.now();
    const res = await call('POST', '/jobs', { body: { sync: true, sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(202);
    expect(pendingJobEnvelope.safeParse(res.body).success).toBe(true);
    expect(res.body.pending).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('answers 200 { job } with summary and results when the job finishes within the wait', async () => {
    setServices({
      ...t.services,
      config: { ...t.config, syncWaitMs: 5000 },
      orchestrator: {
        startJob: async (input) => {
          setTimeout(() => void finishJob(t.services, input.accountId, input.jobId), 50);
          return `local:${input.jobId}`;
        },
        continueJob: async () => 'unused',
        stop: async () => {},
      },
    });
    const res = await call('POST', '/jobs', { body: { sync: true, sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }, { type: 'autofix' }] }] } });
    expect(res.status).toBe(200);
    expect(res.body.pending).toBeUndefined();
    expect(res.body.job).toMatchObject({ status: 'done', outcome: 'pass', canProceed: true });
    expect(res.body.job.summary).toMatchObject({ id: res.body.job.id, status: 'done', taskIds: [res.body.job.tasks[0].id] });
    expect(Object.keys(res.body.job.results).sort()).toEqual(['autofix', 'preflight']);
    expect(res.body.job.deliverables).toHaveLength(1);
    expect(res.body.job.deliverables[0]).toMatchObject({ role: 'fixed', expiresIn: 3600 });
  });
});

describe('fileRef sources', () => {
  async function upload(caller = ACCOUNT_A, sizeBytes = 100) {
    const res = await call('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes }, caller });
    expect(res.status).toBe(200);
    return res.body.fileRef as string;
  }

  it('refuses an upload whose file has not arrived: 400 source_not_uploaded at sources[i].fileRef', async () => {
    const fileRef = await upload();
    const res = await call('POST', '/jobs', { body: { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }, { fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'source_not_uploaded', param: 'sources[1].fileRef' });
  });

  it('reports the first bad source in source order', async () => {
    const missing = await upload();
    const res = await call('POST', '/jobs', {
      body: { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }, { fileRef: missing, steps: [{ type: 'preflight' }] }, { fileRef: 'upload_01jzzzzzzzzzzzzzzzzzzzzzzz', steps: [{ type: 'preflight' }] }] },
    });
    expect(res.body).toMatchObject({ code: 'source_not_uploaded', param: 'sources[1].fileRef' });
  });

  it("refuses another account's upload as if it did not exist", async () => {
    const fileRef = await upload(ACCOUNT_B);
    await t.services.blobs.putBytes(`${ACCOUNT_B.accountId}/uploads/${fileRef}`, new Uint8Array(10), 'application/pdf');
    const res = await call('POST', '/jobs', { body: { sources: [{ fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(res.body).toMatchObject({ code: 'source_not_uploaded', param: 'sources[0].fileRef' });
  });

  it('refuses a file larger than the size declared for the upload', async () => {
    const fileRef = await upload(ACCOUNT_A, 5);
    await t.services.blobs.putBytes(`${ACCOUNT_A.accountId}/uploads/${fileRef}`, new Uint8Array(10), 'application/pdf');
    const res = await call('POST', '/jobs', { body: { sources: [{ fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(res.body).toMatchObject({ code: 'source_not_uploaded', param: 'sources[0].fileRef' });
    expect(res.body.message).toContain('10 bytes');
  });

  it('accepts an uploaded file and points the task at the upload', async () => {
    const fileRef = await upload();
    await t.services.blobs.putBytes(`${ACCOUNT_A.accountId}/uploads/${fileRef}`, new Uint8Array(100), 'application/pdf');
    const res = await call('POST', '/jobs', { body: { sources: [{ fileRef, name: 'big.pdf', steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.tasks[0]).toMatchObject({ fileRef, source: 'big.pdf' });
    const stored = await t.services.jobs.getGraph(ACCOUNT_A.accountId, res.body.job.id);
    const key = `${ACCOUNT_A.accountId}/uploads/${fileRef}`;
    expect(stored!.tasks[0]!.locator).toEqual({ kind: 'upload', uploadId: fileRef, key, etag: (await t.services.blobs.head(key))!.etag });
    expect(await t.services.uploads.referenceCount(ACCOUNT_A.accountId, fileRef)).toBe(1);
  });

  it('shares one upload among jobs: each refers to it, deleting one keeps the file for the others, the last one lets it go', async () => {
    const fileRef = await upload();
    const key = `${ACCOUNT_A.accountId}/uploads/${fileRef}`;
    await t.services.blobs.putBytes(key, new Uint8Array(100), 'application/pdf');
    const jobIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Two tasks of one job on the same upload count once.
      const res = await call('POST', '/jobs', { body: { sources: [{ fileRef, steps: [{ type: 'preflight' }] }, { fileRef, steps: [{ type: 'validate' }] }] } });
      expect(res.status).toBe(201);
      jobIds.push(res.body.job.id);
    }
    expect(await t.services.uploads.referenceCount(ACCOUNT_A.accountId, fileRef)).toBe(3);
    for (const [n, id] of jobIds.entries()) {
      expect((await call('DELETE', `/jobs/${id}`)).status).toBe(200);
      expect(await t.services.uploads.referenceCount(ACCOUNT_A.accountId, fileRef)).toBe(2 - n);
      // The upload is still usable for new jobs (its fileRef has not expired), so its file stays.
      expect(await t.services.blobs.head(key)).not.toBeNull();
    }
  });

  it('deletes a shared file with the last job that refers to it once its fileRef can no longer start a job', async () => {
    const fileRef = await upload();
    const key = `${ACCOUNT_A.accountId}/uploads/${fileRef}`;
    await t.services.blobs.putBytes(key, new Uint8Array(100), 'application/pdf');
    const res = await call('POST', '/jobs', { body: { sources: [{ fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(201);
    // The upload record is gone (expired); the job still holds the file.
    setServices({ ...t.services, orchestrator: t.orchestrator, uploads: { ...t.services.uploads, getUpload: async () => null } });
    expect(await t.services.blobs.head(key)).not.toBeNull();
    expect((await call('DELETE', `/jobs/${res.body.job.id}`)).status).toBe(200);
    expect(await t.services.blobs.head(key)).toBeNull();
  });
});

describe('URL policy', () => {
  it('allows loopback http in the local network mode', async () => {
    const res = await call('POST', '/jobs', { body: { sources: [{ url: 'http://[::1]:8080/a.pdf', steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(201);
  });

  it('refuses a non-loopback host in the local network mode at sources[i].url', async () => {
    const res = await call('POST', '/jobs', { body: { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }, { url: 'https://example.com/a.pdf', steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', param: 'sources[1].url' });
  });

  it('refuses http and private addresses in the cloud network mode, for sources and webhooks', async () => {
    setServices({ ...t.services, config: { ...t.config, networkMode: 'cloud' } });
    const http = await call('POST', '/jobs', { body: { sources: [{ url: 'http://example.com/a.pdf', steps: [{ type: 'preflight' }] }] } });
    expect(http.body).toMatchObject({ code: 'validation_error', param: 'sources[0].url' });
    expect(http.body.message).toMatch(/^sources\[0\]\.url: .*https/);
    const metadata = await call('POST', '/jobs', { body: { sources: [{ url: 'https://169.254.169.254/latest', steps: [{ type: 'preflight' }] }] } });
    expect(metadata.body).toMatchObject({ code: 'validation_error', param: 'sources[0].url' });
    const hook = await call('POST', '/jobs', { body: { sources: [{ url: 'https://example.com/a.pdf', steps: [{ type: 'preflight' }] }], webhook: 'https://10.0.0.1/hook' } });
    expect(hook.body).toMatchObject({ code: 'validation_error', param: 'webhook.url' });
    const ok = await call('POST', '/jobs', { body: { sources: [{ url: 'https://example.com/a.pdf', steps: [{ type: 'preflight' }] }], webhook: 'https://example.com/hook' } });
    expect(ok.status).toBe(201);
  });
});
