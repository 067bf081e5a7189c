import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { requestHash } from '../../../lambdas/api/middleware/idempotency';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, ADMIN_A, apiEvent, call } from './support/api-client';
import { finishJob } from './support/pipeline-stand-in';
import { captureLogLines } from '../../support/log-lines';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';
const body = { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }], metaData: { a: 1, b: 2 } };

let t: TestServices;
let keyCounter = 0;
const newKey = () => `key-${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => {
  setServices(t.services);
  t.orchestrator.started.length = 0;
});

const post = (path: string, key: string, b: unknown, caller = ACCOUNT_A) =>
  call('POST', path, { body: b, caller, headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, with idempotent-replayed: true, creating nothing', async () => {
    const key = newKey();
    const first = await post('/jobs', key, body);
    const second = await post('/jobs', key, { metaData: { b: 2, a: 1 }, sources: body.sources });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.raw).toBe(first.raw);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(t.orchestrator.started).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for the same key with another body', async () => {
    const key = newKey();
    expect((await post('/jobs', key, body)).status).toBe(201);
    const other = await post('/jobs', key, { ...body, metaData: { a: 2 } });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: true, code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(t.orchestrator.started).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for the same key and body on another route', async () => {
    const key = newKey();
    const upload = { mimeType: 'application/pdf', sizeBytes: 10 };
    expect((await post('/uploads', key, upload)).status).toBe(200);
    const elsewhere = await post('/jobs/preflight', key, upload);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.code).toBe('idempotency_key_reused');
  });

  it('tells the same review body on two jobs apart (the route includes the job id)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', '/jobs', { body: { ...body, policy: { onFail: 'manual_review' } } });
      await finishJob(t.services, ACCOUNT_A.accountId, res.body.job.id, { verdict: 'fail' });
      ids.push(res.body.job.id);
    }
    const key = newKey();
    const decision = { decision: 'approve' };
    expect((await call('POST', `/jobs/${ids[0]}/review`, { caller: ADMIN_A, body: decision, headers: { 'Idempotency-Key': key } })).status).toBe(200);
    const second = await call('POST', `/jobs/${ids[1]}/review`, { caller: ADMIN_A, body: decision, headers: { 'Idempotency-Key': key } });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('idempotency_key_reused');
  });

  it('answers 409 idempotency_in_progress while the first request with the key still runs', async () => {
    const key = newKey();
    const event = apiEvent('POST', '/jobs', { body, headers: { 'Idempotency-Key': key } });
    const hash = requestHash({ ...event, jsonBody: body });
    expect(await t.services.idempotency.claim(ACCOUNT_A.accountId, key, hash, 60)).toEqual({ state: 'claimed' });
    const res = await post('/jobs', key, body);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_in_progress');
    expect(t.orchestrator.started).toHaveLength(0);
  });

  it('scopes keys to the account: another account with the same key gets its own job', async () => {
    const key = newKey();
    const mine = await post('/jobs', key, body, ACCOUNT_A);
    const theirs = await post('/jobs', key, body, ACCOUNT_B);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.job.id).not.toBe(mine.body.job.id);
  });

  it('keeps a 4xx answer and replays it', async () => {
    const key = newKey();
    const bad = { sources: [] };
    const first = await post('/jobs', key, bad);
    const second = await post('/jobs', key, bad);
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.code).toBe('validation_error');
  });

  it('releases the key after a 5xx so the same request can be retried', async () => {
    const log = captureLogLines();
    const key = newKey();
    setServices({ ...t.services, orchestrator: { startJob: async () => { throw new Error('down'); }, continueJob: async () => 'unused', stop: async () => {} } });
    const failed = await post('/jobs', key, body);
    log.restore();
    expect(failed.status).toBe(503);
    setServices(t.services);
    const retried = await post('/jobs', key, body);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(t.orchestrator.started).toHaveLength(1);
  });

  it('refuses a key longer than 255 characters with 400', async () => {
    const res = await post('/jobs', 'k'.repeat(256), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
    expect((await post('/jobs', 'k'.repeat(255), body)).status).toBe(201);
  });

  it('reads the header case-insensitively', async () => {
    const key = newKey();
    await call('POST', '/jobs', { body, headers: { 'idempotency-key': key } });
    const again = await call('POST', '/jobs', { body, headers: { 'IDEMPOTENCY-KEY': key } });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('creates a new job for each POST without a key', async () => {
    await call('POST', '/jobs', { body });
    await call('POST', '/jobs', { body });
    expect(t.orchestrator.started).toHaveLength(2);
  });
});
