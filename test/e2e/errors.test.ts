/**
 * docs/api.md §7: every failure path answers in the contract's error shape with a
 * stable code and the request id, whoever produces it.
 */
import { describe, expect, it } from 'vitest';
import { api, expectErrorShape } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { target } from './support/target';

const src = async () => ({ file: await onePagePdfBase64(), name: 'card.pdf' });

describe('public endpoints', () => {
  it('GET /health answers 200 without a key, with a request id', async () => {
    const res = await api('GET', '/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /openapi.json is public and documents every endpoint of the contract', async () => {
    const res = await api('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const paths = Object.keys(res.body.paths);
    for (const p of ['/health', '/jobs', '/jobs/preflight', '/jobs/fix', '/jobs/validate', '/jobs/previews', '/jobs/{id}', '/jobs/{id}/review', '/uploads', '/profiles']) {
      expect(paths).toContain(p);
    }
  });
});

describe('gateway answers', () => {
  it('an unknown route is 404 route_not_found', async () => {
    expectErrorShape(await api('GET', '/no/such/thing'), 404, 'route_not_found');
  });

  it('a request without a key is 401 with WWW-Authenticate: Bearer', async () => {
    const res = await api('GET', '/jobs', { key: null });
    expectErrorShape(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a mistyped key is 401', async () => {
    const k = target().key;
    // One character changed, whatever the key: the old rule looked at the last
    // character and replaced the third-last, so a key with 'a' there was left as it was.
    const typo = k.slice(0, -3) + (k.at(-3) === 'a' ? 'b' : 'a') + k.slice(-2);
    expect(typo).not.toBe(k);
    expectErrorShape(await api('GET', '/jobs', { key: typo }), 401, 'unauthorized');
  });

  it('a body above the size limit is 413 payload_too_large and points at POST /uploads', async () => {
    const big = 'A'.repeat(7 * 1000 * 1000);
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ file: big }] } });
    expectErrorShape(res, 413, 'payload_too_large');
    expect(res.body.message).toMatch(/\/uploads/);
  });
});

describe('request validation', () => {
  it('a body that is not JSON is 415 when labelled otherwise, 400 invalid_json when malformed', async () => {
    expectErrorShape(await api('POST', '/jobs/preflight', { rawBody: 'sources=1', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    expectErrorShape(await api('POST', '/jobs/preflight', { rawBody: '{"sources": [', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
  });

  it('a source with two locators names the source', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ ...(await src()), url: 'http://127.0.0.1:9/x.pdf' }] } });
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.param).toBe('sources[0]');
  });

  it('an unknown field is refused (closed schemas), except inside metaData and params', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sources: [await src()], colour: 'blue' } });
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.message).toMatch(/colour/);
    const ok = await api('POST', '/jobs', {
      body: { metaData: { anything: { goes: true } }, sources: [{ ...(await src()), steps: [{ type: 'preflight', params: { custom: 1 } }] }] },
    });
    expect(ok.status).toBe(201);
  });

  it('sources must have 1 to 50 entries', async () => {
    const none = await api('POST', '/jobs/preflight', { body: { sources: [] } });
    expectErrorShape(none, 400, 'validation_error');
    expect(none.body.param).toBe('sources');
    const one = await src();
    const many = await api('POST', '/jobs/preflight', { body: { sources: Array.from({ length: 51 }, () => ({ file: one.file })) } });
    expectErrorShape(many, 400, 'validation_error');
    expect(many.body.param).toBe('sources');
  });

  it('an unknown step type is a 400 at submission', async () => {
    const res = await api('POST', '/jobs', { body: { sources: [{ ...(await src()), steps: [{ type: 'sharpen' }] }] } });
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.param).toBe('sources[0].steps[0].type');
  });

  it('metaData above 16 KB is refused', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sources: [await src()], metaData: { blob: 'x'.repeat(17 * 1024) } } });
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.param).toBe('metaData');
  });

  it('an unknown preflight profile and an unknown validate code are refused', async () => {
    const p = await api('POST', '/jobs/preflight', { body: { sources: [{ ...(await src()), profileId: 'no-such-profile' }] } });
    // Neither a built-in nor one of the account's own profiles (docs/api.md §11 rule 10).
    expectErrorShape(p, 400, 'profile_not_found');
    expect(p.body.param).toBe('sources[0].profileId');
    const v = await api('POST', '/jobs/validate', { body: { sources: [{ ...(await src()), profile: '5z' }] } });
    expectErrorShape(v, 400, 'validation_error');
    expect(v.body.param).toMatch(/^sources\[0\]\.profile/);
  });

  it('validate requires a profile', async () => {
    const res = await api('POST', '/jobs/validate', { body: { sources: [await src()] } });
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.param).toBe('sources[0].profile');
  });

  it('an unknown job id is 404, and so is a malformed one', async () => {
    expectErrorShape(await api('GET', '/jobs/job_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
    expectErrorShape(await api('GET', '/jobs/not-an-id'), 404, 'not_found');
    expectErrorShape(await api('DELETE', '/jobs/job_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
  });

  it('bad list queries name the parameter', async () => {
    const res = await api('GET', '/jobs?limit=500');
    expectErrorShape(res, 400, 'validation_error');
    expect(res.body.param).toBe('limit');
    const bad = await api('GET', '/jobs?status=finished');
    expectErrorShape(bad, 400, 'validation_error');
    expect(bad.body.param).toBe('status');
  });
});
