import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import type { Orchestrator } from '../../../lambdas/domain/ports';
import { jobEnvelope, pendingJobEnvelope } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, call } from './support/api-client';
import { finishJob } from './support/pipeline-stand-in';
import { useMemoryMetrics } from '../../support/memory-metrics';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => {
  setServices({ ...t.services, config: { ...t.config, syncWaitMs: 200 } });
});

/** An orchestrator whose "pipeline" finishes each job shortly after it starts. */
const finishingOrchestrator = (): Orchestrator => ({
  startJob: async (input) => {
    setTimeout(() => void finishJob(t.services, input.accountId, input.jobId), 30);
    return `local:${input.jobId}`;
  },
  continueJob: async (input) => `local-standard:${input.jobId}`,
  stop: async () => {},
});

const stepsOf = (job: { tasks: { steps: { type: string; params: unknown }[] }[] }) =>
  job.tasks.map((task) => task.steps.map((s) => ({ type: s.type, params: s.params })));

async function endpointOf(jobId: string) {
  return (await t.services.jobs.getJob(ACCOUNT_A.accountId, jobId))?.endpoint;
}

describe('POST /jobs/preflight', () => {
  it('gives each source the steps [preflight], with the profileId when given', async () => {
    const res = await call('POST', '/jobs/preflight', {
      body: { sources: [{ url: URL_SOURCE, clientRef: 'a' }, { url: URL_SOURCE, profileId: 'default', name: 'b.pdf' }], metaData: { k: 1 } },
    });
    expect(res.status).toBe(201);
    expect(jobEnvelope.safeParse(res.body).success).toBe(true);
    expect(stepsOf(res.body.job)).toEqual([[{ type: 'preflight', params: {} }], [{ type: 'preflight', params: { profileId: 'default' } }]]);
    expect(res.body.job).toMatchObject({ channel: 'api', policy: { onFail: 'reject' }, ruleId: null, metaData: { k: 1 } });
    expect(res.body.job.tasks[0].clientRef).toBe('a');
    expect(res.body.job.tasks[1].name).toBe('b.pdf');
    expect(await endpointOf(res.body.job.id)).toBe('preflight');
  });

  it('waits with sync: true and answers 200 once the job is terminal', async () => {
    setServices({ ...t.services, orchestrator: finishingOrchestrator(), config: { ...t.config, syncWaitMs: 5000 } });
    const res = await call('POST', '/jobs/preflight', { body: { sync: true, sources: [{ url: URL_SOURCE }] } });
    expect(res.status).toBe(200);
    expect(res.body.job.status).toBe('done');
    expect(res.body.job.results.preflight).toHaveLength(1);
  });
});

describe('POST /jobs/fix', () => {
  it('gives each source [preflight, autofix] with its items, and repreflight only when asked', async () => {
    const plain = await call('POST', '/jobs/fix', { body: { sources: [{ url: URL_SOURCE, profileId: 'default', items: ['actions.remove'] }] } });
    expect(plain.status).toBe(201);
    expect(stepsOf(plain.body.job)).toEqual([[
      { type: 'preflight', params: { profileId: 'default' } },
      { type: 'autofix', params: { items: ['actions.remove'] } },
    ]]);
    const again = await call('POST', '/jobs/fix', { body: { repreflight: true, sources: [{ url: URL_SOURCE }] } });
    expect(stepsOf(again.body.job)).toEqual([[
      { type: 'preflight', params: {} },
      { type: 'autofix', params: {} },
      { type: 'repreflight', params: {} },
    ]]);
    expect(await endpointOf(again.body.job.id)).toBe('fix');
  });
});

describe('what the clients written for the original service send (docs/api.md §11 rule 7)', () => {
  const context = { bleed: { required_mm: 3 }, pageCount: { min: 1, max: 4 } };

  it.each(['/jobs/preflight', '/jobs/fix'])('%s takes the order context, as POST /jobs does, and keeps it on the job', async (path) => {
    const res = await call('POST', path, { body: { context, sources: [{ url: URL_SOURCE }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.job.context).toEqual(context);
    expect((await t.services.jobs.getJob(ACCOUNT_A.accountId, res.body.job.id))?.context).toEqual(context);
  });

  it('refuses a malformed context there as on POST /jobs, naming the field', async () => {
    const res = await call('POST', '/jobs/preflight', { body: { context: { bleed: { required_mm: -1 } }, sources: [{ url: URL_SOURCE }] } });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('context.bleed.required_mm');
  });

  it.each([
    ['/jobs', { url: URL_SOURCE, mimeType: 'application/pdf', steps: [{ type: 'preflight' }] }],
    ['/jobs/preflight', { url: URL_SOURCE, mimeType: 'application/pdf' }],
    ['/jobs/fix', { url: URL_SOURCE, mimeType: 'application/pdf' }],
    ['/jobs/validate', { url: URL_SOURCE, mimeType: 'application/pdf', profile: '2b' }],
    ['/jobs/previews', { url: URL_SOURCE, mimeType: 'application/pdf' }],
    ['/jobs/optimize', { url: URL_SOURCE, mimeType: 'application/pdf' }],
  ])('%s takes mimeType on a source, as a hint the task shows until the bytes are read', async (path, source) => {
    const syncByDefault = path === '/jobs/validate' || path === '/jobs/optimize';
    const res = await call('POST', path, { body: { async: syncByDefault ? true : undefined, sources: [source] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.job.tasks[0]).toMatchObject({ mimeType: 'application/pdf', fileType: null });
  });

  it.each(['/jobs/validate', '/jobs/optimize'])('%s stays closed to context, which only preflight and fix take', async (path) => {
    const res = await call('POST', path, { body: { async: true, context, sources: [{ url: URL_SOURCE, ...(path === '/jobs/validate' ? { profile: 'auto' } : {}) }] } });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('context');
  });

  it('refuses a source mimeType that is not a MIME type', async () => {
    const res = await call('POST', '/jobs/preflight', { body: { sources: [{ url: URL_SOURCE, mimeType: 'pdf' }] } });
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('sources[0].mimeType');
  });
});

describe('POST /jobs/validate', () => {
  it('is sync by default: 202 { job, pending: true } when the job is not done within the wait', async () => {
    const res = await call('POST', '/jobs/validate', { body: { sources: [{ url: URL_SOURCE, profile: ['2b', 'ua1'] }] } });
    expect(res.status).toBe(202);
    expect(pendingJobEnvelope.safeParse(res.body).success).toBe(true);
    expect(stepsOf(res.body.job)).toEqual([[{ type: 'validate', params: { profile: ['2b', 'ua1'] } }]]);
    expect(await endpointOf(res.body.job.id)).toBe('validate');
  });

  it('is sync by default: 200 { job } when the job finishes within the wait', async () => {
    setServices({ ...t.services, orchestrator: finishingOrchestrator(), config: { ...t.config, syncWaitMs: 5000 } });
    const res = await call('POST', '/jobs/validate', { body: { sources: [{ url: URL_SOURCE, profile: 'auto' }] } });
    expect(res.status).toBe(200);
    expect(res.body.pending).toBeUndefined();
    const task = res.body.job.tasks[0];
    expect(res.body.job.results.validate).toEqual([
      { taskId: task.id, fileRef: null, source: URL_SOURCE, fileType: task.fileType, mimeType: task.mimeType, status: 'done', outcome: 'pass', compliant: false, profiles: [] },
    ]);
  });

  it('answers 201 { job, pending: true } at once with async: true', async () => {
    // A sync wait of ten minutes: had the endpoint waited, the test would time out, whatever the machine's speed.
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 600_000 } });
    const started = Date.now();
    const res = await call('POST', '/jobs/validate', { body: { async: true, sources: [{ url: URL_SOURCE, profile: 'auto' }] } });
    expect(res.status).toBe(201);
    expect(res.body.pending).toBe(true);
    expect(res.body.job.status).toBe('pending');
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('POST /jobs/previews', () => {
  it('gives each source [previews] with its params', async () => {
    const res = await call('POST', '/jobs/previews', {
      body: { sources: [{ url: URL_SOURCE, params: { format: 'png', dpi: 100, pages: '1-2' } }, { url: URL_SOURCE }] },
    });
    expect(res.status).toBe(201);
    expect(stepsOf(res.body.job)).toEqual([
      [{ type: 'previews', params: { format: 'png', dpi: 100, pages: '1-2' } }],
      [{ type: 'previews', params: {} }],
    ]);
    expect(await endpointOf(res.body.job.id)).toBe('previews');
  });

  it('answers 202 with sync: true when the job is still running after the wait', async () => {
    const res = await call('POST', '/jobs/previews', { body: { sync: true, sources: [{ url: URL_SOURCE }] } });
    expect(res.status).toBe(202);
    expect(res.body.pending).toBe(true);
  });
});

describe('POST /jobs/optimize (docs/api.md §11 rule 11)', () => {
  const params = { pdf: { preset: 'web', jpegQuality: 80 }, raster: { maxEdgePx: 2000 } };

  it('gives each source [optimize] with its params, and is sync by default: 202 { job, pending: true } when the job is not done within the wait', async () => {
    const res = await call('POST', '/jobs/optimize', { body: { sources: [{ url: URL_SOURCE, params, clientRef: 'a' }, { url: URL_SOURCE, name: 'b.pdf' }], metaData: { k: 1 } } });
    expect(res.status).toBe(202);
    expect(pendingJobEnvelope.safeParse(res.body).success).toBe(true);
    expect(stepsOf(res.body.job)).toEqual([[{ type: 'optimize', params }], [{ type: 'optimize', params: {} }]]);
    expect(res.body.job).toMatchObject({ channel: 'api', policy: { onFail: 'reject' }, metaData: { k: 1 } });
    expect(res.body.job.tasks.map((task: { clientRef: string | null; name: string | null }) => [task.clientRef, task.name])).toEqual([['a', null], [null, 'b.pdf']]);
    expect(await endpointOf(res.body.job.id)).toBe('optimize');
  });

  it('is sync by default: 200 { job } with results.optimize when the job finishes within the wait', async () => {
    setServices({ ...t.services, orchestrator: finishingOrchestrator(), config: { ...t.config, syncWaitMs: 5000 } });
    const res = await call('POST', '/jobs/optimize', { body: { sources: [{ url: URL_SOURCE }] } });
    expect(res.status).toBe(200);
    expect(res.body.pending).toBeUndefined();
    expect(jobEnvelope.safeParse(res.body).success).toBe(true);
    const task = res.body.job.tasks[0];
    const optimized = task.steps[0].outputs[0];
    expect(optimized.role).toBe('optimized');
    expect(res.body.job.results.optimize).toEqual([
      {
        taskId: task.id,
        fileRef: null,
        source: URL_SOURCE,
        fileType: 'pdf',
        mimeType: 'application/pdf',
        status: 'done',
        outcome: 'fixed',
        output: {
          bucket: optimized.bucket,
          key: optimized.key,
          sizeBytes: optimized.sizeBytes,
          sizeBytesBefore: optimized.sizeBytes + 100,
          downloadUrl: expect.any(String),
          expiresIn: 3600,
          appliedFixes: ['streams.recompress'],
          skippedFixes: [{ id: 'file.linearize', reason: 'Not asked for.' }],
        },
      },
    ]);
    expect(res.body.job.deliverables).toEqual([expect.objectContaining({ taskId: task.id, role: 'optimized', key: optimized.key })]);
  });

  it('answers 201 { job, pending: true } at once with async: true', async () => {
    // A sync wait of ten minutes: had the endpoint waited, the test would time out, whatever the machine's speed.
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 600_000 } });
    const started = Date.now();
    const res = await call('POST', '/jobs/optimize', { body: { async: true, sources: [{ url: URL_SOURCE, params }] } });
    expect(res.status).toBe(201);
    expect(res.body.pending).toBe(true);
    expect(res.body.job.status).toBe('pending');
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it.each([
    [{ pdf: { jpegQuality: 0 } }, 'sources[0].params.pdf.jpegQuality'],
    [{ pdf: { preset: 'screen' } }, 'sources[0].params.pdf.preset'],
    [{ raster: { maxEdgePx: 'big' } }, 'sources[0].params.raster.maxEdgePx'],
  ])('refuses a bad option %j with a 400 naming the field', async (bad, param) => {
    const res = await call('POST', '/jobs/optimize', { body: { async: true, sources: [{ url: URL_SOURCE, params: bad }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: true, code: 'validation_error', param });
  });

  it('is closed: a field the source does not know is a 400, while params stay open', async () => {
    const unknown = await call('POST', '/jobs/optimize', { body: { async: true, sources: [{ url: URL_SOURCE, profileId: 'default' }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.param).toBe('sources[0].profileId');
    const open = await call('POST', '/jobs/optimize', { body: { async: true, sources: [{ url: URL_SOURCE, params: { pdf: { futureOption: 1 } } }] } });
    expect(open.status).toBe(201);
  });
});

/**
 * Each job created is counted by its route (JobsCreated), and each sync request answered 202
 * (SyncRequestsPending); published once per request.
 */
describe('metrics of the job-creating routes', () => {
  const metrics = useMemoryMetrics();
  const recorded = () => metrics.sink.recorded.map(({ name, value, dimensions }) => ({ name, value, dimensions }));
  beforeEach(() => {
    setServices({ ...t.services, config: { ...t.config, syncWaitMs: 50 } });
  });

  it.each(['/jobs', '/jobs/preflight', '/jobs/fix', '/jobs/previews'])('%s counts the job it created under its route', async (path) => {
    const body = path === '/jobs' ? { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } : { sources: [{ url: URL_SOURCE }] };
    const res = await call('POST', path, { body });
    expect(res.status).toBe(201);
    expect(recorded()).toEqual([{ name: 'JobsCreated', value: 1, dimensions: { endpoint: path } }]);
    expect(metrics.sink.flushes).toBe(1);
  });

  it('counts a sync request answered 202 under its route, besides the job', async () => {
    const res = await call('POST', '/jobs/validate', { body: { sources: [{ url: URL_SOURCE, profile: 'auto' }] } });
    expect(res.status).toBe(202);
    expect(recorded()).toEqual([
      { name: 'JobsCreated', value: 1, dimensions: { endpoint: '/jobs/validate' } },
      { name: 'SyncRequestsPending', value: 1, dimensions: { endpoint: '/jobs/validate' } },
    ]);
  });

  it('counts nothing for a request refused before a job exists, and still publishes', async () => {
    const res = await call('POST', '/jobs/preflight', { body: { sources: [] } });
    expect(res.status).toBe(400);
    expect(recorded()).toEqual([]);
    expect(metrics.sink.flushes).toBe(1);
  });
});
