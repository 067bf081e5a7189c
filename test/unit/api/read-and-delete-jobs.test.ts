import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { jobEnvelope, jobListResponse, jobRunsResponse } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, call } from './support/api-client';
import { finishJob } from './support/pipeline-stand-in';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => setServices(t.services));

async function createJob(body: Record<string, unknown> = {}, caller = ACCOUNT_A): Promise<string> {
  const res = await call('POST', '/jobs', { caller, body: { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }], ...body } });
  expect(res.status).toBe(201);
  return res.body.job.id;
}

describe('GET /jobs/{id}', () => {
  it('answers 200 { job } for a job of the account', async () => {
    const id = await createJob();
    const res = await call('GET', `/jobs/${id}`);
    expect(res.status).toBe(200);
    expect(jobEnvelope.safeParse(res.body).success).toBe(true);
    expect(res.body.job.id).toBe(id);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("answers 404 for another account's job, exactly as for no job", async () => {
    const id = await createJob({}, ACCOUNT_B);
    const theirs = await call('GET', `/jobs/${id}`);
    const none = await call('GET', '/jobs/job_01jzzzzzzzzzzzzzzzzzzzzzzz');
    expect(theirs.status).toBe(404);
    expect(none.status).toBe(404);
    expect({ ...theirs.body, requestId: '' }).toEqual({ ...none.body, requestId: '' });
    expect(theirs.body).toMatchObject({ error: true, code: 'not_found' });
  });

  it('answers 404 for an id that is not a job id at all', async () => {
    for (const id of ['nope', 'task_01jzzzzzzzzzzzzzzzzzzzzzzz', 'job_01JZZZZZZZZZZZZZZZZZZZZZZZ']) {
      const res = await call('GET', `/jobs/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('carries presigned download URLs, summary and results once terminal', async () => {
    const id = await createJob({ sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }, { type: 'previews' }] }] });
    await finishJob(t.services, ACCOUNT_A.accountId, id);
    const res = await call('GET', `/jobs/${id}`);
    const job = res.body.job;
    expect(job).toMatchObject({ status: 'done', outcome: 'pass', canProceed: true });
    expect(job.summary).toMatchObject({ id, status: 'done', outcome: 'pass', canProceed: true, taskIds: [job.tasks[0].id] });
    expect(Object.keys(job.results).sort()).toEqual(['preflight', 'previews']);
    expect(job.tasks[0].originalArtifact).toMatchObject({ role: 'source', expiresIn: 3600, downloadUrl: expect.stringContaining('X-Amz-Signature') });
    const download = await fetch(job.tasks[0].originalArtifact.downloadUrl);
    expect(download.status).toBe(200);
    expect(await download.text()).toContain('%PDF');
  });

  it('with expand=runs answers the runs view without the job wrapper', async () => {
    const id = await createJob({ sources: [{ url: URL_SOURCE, name: 'card.pdf', steps: [{ type: 'preflight' }, { type: 'autofix' }, { type: 'previews' }] }] });
    await finishJob(t.services, ACCOUNT_A.accountId, id);
    const res = await call('GET', `/jobs/${id}`, { query: { expand: 'runs' } });
    expect(res.status).toBe(200);
    expect(res.body.job).toBeUndefined();
    expect(jobRunsResponse.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ id, status: 'done', outcome: 'pass', canProceed: true });
    const [run] = res.body.runs;
    expect(run).toMatchObject({ name: 'card.pdf', status: 'done', outcome: 'pass', hasOutput: true });
    expect(run.proofs.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    expect(run.downloadUrl).toContain('fixed.pdf');
    expect(run.reportUrl).toContain('report.json');
  });

  it('refuses an unknown expand value with 400 naming it', async () => {
    const id = await createJob();
    const res = await call('GET', `/jobs/${id}`, { query: { expand: 'everything' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', param: 'expand' });
  });
});

describe('GET /jobs', () => {
  let ids: string[] = [];
  const caller = { accountId: 'acct-list', keyId: 'key_01jabcdefghjkmnpqrstvwxyz1', role: 'standard' as const };
  beforeAll(async () => {
    setServices(t.services);
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await createJob({ orderId: i % 2 === 0 ? 'even' : 'odd', channel: i === 4 ? 'store' : 'api', customerId: `c${i}` }, caller));
    }
    await finishJob(t.services, caller.accountId, ids[0]!);
  });

  it('lists the account’s jobs newest first, each presented like GET /jobs/{id}', async () => {
    const res = await call('GET', '/jobs', { caller });
    expect(res.status).toBe(200);
    expect(jobListResponse.safeParse(res.body).success).toBe(true);
    expect(res.body.jobs.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    expect(res.body.nextKey).toBeNull();
    const done = res.body.jobs.find((j: { id: string }) => j.id === ids[0]);
    expect(done.summary).toBeDefined();
    expect(done.tasks[0].steps).toHaveLength(1);
  });

  it('pages with limit and nextKey without repeating or skipping', async () => {
    const seen: string[] = [];
    let nextKey: string | null | undefined;
    do {
      const res = await call('GET', '/jobs', { caller, query: { limit: '2', ...(nextKey ? { nextKey } : {}) } });
      expect(res.body.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.jobs.map((j: { id: string }) => j.id));
      nextKey = res.body.nextKey;
    } while (nextKey);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by orderId, channel, customerId and status', async () => {
    const ids_ = async (query: Record<string, string>) =>
      (await call('GET', '/jobs', { caller, query })).body.jobs.map((j: { id: string }) => j.id);
    expect(await ids_({ orderId: 'odd' })).toEqual([ids[3], ids[1]]);
    expect(await ids_({ channel: 'store' })).toEqual([ids[4]]);
    expect(await ids_({ customerId: 'c2' })).toEqual([ids[2]]);
    expect(await ids_({ status: 'done' })).toEqual([ids[0]]);
    expect(await ids_({ outcome: 'pass' })).toEqual([ids[0]]);
  });

  it('filters by creation time', async () => {
    const far = await call('GET', '/jobs', { caller, query: { createdAfter: '2999-01-01T00:00:00Z' } });
    expect(far.body.jobs).toEqual([]);
    const past = await call('GET', '/jobs', { caller, query: { createdBefore: '2000-01-01T00:00:00.000Z' } });
    expect(past.body.jobs).toEqual([]);
    const all = await call('GET', '/jobs', { caller, query: { createdAfter: '2000-01-01', createdBefore: '2999-01-01' } });
    expect(all.body.jobs).toHaveLength(5);
  });

  it('gives lean entries with preview=true: tasks without steps, no summary or results', async () => {
    const res = await call('GET', '/jobs', { caller, query: { preview: 'true' } });
    const done = res.body.jobs.find((j: { id: string }) => j.id === ids[0]);
    expect(done.summary).toBeUndefined();
    expect(done.results).toBeUndefined();
    expect(done.tasks[0].steps).toBeUndefined();
    expect(done.tasks[0].id).toBeDefined();
    expect(jobListResponse.safeParse(res.body).success).toBe(true);
  });

  it('never shows another account’s jobs', async () => {
    const res = await call('GET', '/jobs', { caller: ACCOUNT_B, query: { limit: '100' } });
    expect(res.body.jobs.some((j: { id: string }) => ids.includes(j.id))).toBe(false);
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ status: 'finished' }, 'status'],
    [{ outcome: 'great' }, 'outcome'],
    [{ channel: 'fax' }, 'channel'],
    [{ createdAfter: 'yesterday' }, 'createdAfter'],
    [{ createdBefore: '2026-13-45T00:00:00Z' }, 'createdBefore'],
    [{ preview: 'maybe' }, 'preview'],
    [{ nextKey: 'not-a-cursor!' }, 'nextKey'],
  ])('refuses the query %o with 400 naming %s', async (query, param) => {
    const res = await call('GET', '/jobs', { caller, query });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', param });
  });

  it('ignores query parameters it does not know', async () => {
    const res = await call('GET', '/jobs', { caller, query: { utm_source: 'x' } });
    expect(res.status).toBe(200);
  });
});

describe('DELETE /jobs/{id}', () => {
  it('stops a running job first, deletes its files and records, and answers { id, taskIds }', async () => {
    t.orchestrator.stopped.length = 0;
    const id = await createJob({ sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }, { file: Buffer.from('%PDF').toString('base64'), steps: [{ type: 'preflight' }] }] });
    const graph = (await t.services.jobs.getGraph(ACCOUNT_A.accountId, id))!;
    const inline = graph.tasks[1]!.locator as { key: string };
    await t.services.jobs.transitionJob(id, ['pending'], 'running');
    const output = `${ACCOUNT_A.accountId}/jobs/${id}/${graph.tasks[0]!.id}/step/out.json`;
    await t.services.blobs.putBytes(output, new Uint8Array([1]), 'application/json');

    const res = await call('DELETE', `/jobs/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, taskIds: graph.tasks.map((x) => x.id) });
    expect(t.orchestrator.stopped).toEqual([`local:${id}`]);
    expect(await t.services.blobs.head(inline.key)).toBeNull();
    expect(await t.services.blobs.head(output)).toBeNull();
    expect(await t.services.jobs.getGraphById(id)).toBeNull();
    expect((await call('GET', `/jobs/${id}`)).status).toBe(404);
  });

  it('does not stop a job that is already terminal', async () => {
    t.orchestrator.stopped.length = 0;
    const id = await createJob();
    await finishJob(t.services, ACCOUNT_A.accountId, id);
    expect((await call('DELETE', `/jobs/${id}`)).status).toBe(200);
    expect(t.orchestrator.stopped).toEqual([]);
  });

  it("answers 404 for another account's job and leaves it alone", async () => {
    const id = await createJob({}, ACCOUNT_B);
    const res = await call('DELETE', `/jobs/${id}`);
    expect(res.status).toBe(404);
    expect(await t.services.jobs.getGraphById(id)).not.toBeNull();
  });

  it('answers 404 for a malformed id', async () => {
    expect((await call('DELETE', '/jobs/job_x')).status).toBe(404);
  });
});
