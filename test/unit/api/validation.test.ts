import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../support/test-services';
import { call } from './support/api-client';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';
const FILE = Buffer.from('%PDF-1.7').toString('base64');
const src = (extra: Record<string, unknown> = {}) => ({ url: URL_SOURCE, steps: [{ type: 'preflight' }], ...extra });

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
  setServices(t.services);
});
afterAll(() => t?.stop());

async function expect400(path: string, body: unknown, param: string | undefined, message?: RegExp | string, code = 'validation_error') {
  const res = await call('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ error: true, code, requestId: expect.any(String) });
  expect(res.body.param).toBe(param);
  expect(res.headers['x-request-id']).toBe(res.body.requestId);
  if (param) expect(res.body.message.startsWith(`${param}: `)).toBe(true);
  if (message) expect(res.body.message).toMatch(message);
  return res.body;
}

describe('POST /jobs request validation', () => {
  const cases: [string, unknown, string | undefined, (RegExp | string)?][] = [
    ['a body that is not an object', ['x'], undefined, /^request body: /],
    ['missing sources', {}, 'sources', 'sources: is required'],
    ['no sources', { sources: [] }, 'sources'],
    ['more than 50 sources', { sources: Array.from({ length: 51 }, () => src()) }, 'sources'],
    ['an unknown top-level field', { sources: [src()], colour: 'red' }, 'colour', 'colour: unknown field'],
    ['an unknown source field', { sources: [src({ foo: 1 })] }, 'sources[0].foo', 'sources[0].foo: unknown field'],
    ['a source with two locators', { sources: [src({ file: FILE })] }, 'sources[0]', 'sources[0]: exactly one of url, file, fileRef'],
    ['a source with no locator', { sources: [{ steps: [{ type: 'preflight' }] }] }, 'sources[0]', 'sources[0]: exactly one of url, file, fileRef'],
    ['headers without url', { sources: [{ file: FILE, headers: { A: 'b' }, steps: [{ type: 'preflight' }] }] }, 'sources[0].headers'],
    ['a header name that is not a token', { sources: [src({ headers: { 'Bad Name': 'x' } })] }, 'sources[0].headers.Bad Name', /header name/],
    ['a header value with a line break', { sources: [src({ headers: { A: 'x\r\nInjected: 1' } })] }, 'sources[0].headers.A'],
    ['a url that is not a string', { sources: [src({ url: 42 })] }, 'sources[0].url'],
    ['a url that is not absolute', { sources: [src({ url: '/relative.pdf' })] }, 'sources[0].url', /absolute/],
    ['invalid base64', { sources: [{ file: '***', steps: [{ type: 'preflight' }] }] }, 'sources[0].file', /base64/],
    ['base64 of nothing', { sources: [{ file: '====', steps: [{ type: 'preflight' }] }] }, 'sources[0].file'],
    ['a fileRef that is not an upload id', { sources: [{ fileRef: 'job_01', steps: [{ type: 'preflight' }] }] }, 'sources[0].fileRef', /upload/],
    ['a name too long', { sources: [src({ name: 'x'.repeat(256) })] }, 'sources[0].name'],
    ['missing steps', { sources: [{ url: URL_SOURCE }] }, 'sources[0].steps'],
    ['no steps', { sources: [src({ steps: [] })] }, 'sources[0].steps'],
    ['more than 16 steps', { sources: [src({ steps: Array.from({ length: 17 }, () => ({ type: 'preflight' })) })] }, 'sources[0].steps'],
    ['an unknown step type', { sources: [src({ steps: [{ type: 'preflight' }, { type: 'ocr' }] })] }, 'sources[0].steps[1].type', /must be one of preflight, autofix, repreflight, validate, previews/],
    ['an unknown step field', { sources: [src({ steps: [{ type: 'preflight', profileId: 'default' }] })] }, 'sources[0].steps[0].profileId', /unknown field/],
    ['a profileId of the wrong type', { sources: [src({ steps: [{ type: 'preflight', params: { profileId: 7 } }] })] }, 'sources[0].steps[0].params.profileId'],
    ['an unknown fix id', { sources: [src({ steps: [{ type: 'autofix', params: { items: ['boxes.normalize', 'magic'] } }] })] }, 'sources[0].steps[0].params.items[1]', /unknown fix "magic"/],
    ['fixParams of an unknown fix', { sources: [src({ steps: [{ type: 'autofix', params: { fixParams: { magic: {} } } }] })] }, 'sources[0].steps[0].params.fixParams.magic', /unknown fix "magic"/],
    ['an unknown fix parameter', { sources: [src({ steps: [{ type: 'autofix', params: { fixParams: { 'actions.remove': { url: true } } } }] })] }, 'sources[0].steps[0].params.fixParams.actions.remove.url', /actions.remove has no parameter "url" \(it has: uri\)/],
    ['a fix parameter of the wrong type', { sources: [src({ steps: [{ type: 'autofix', params: { fixParams: { 'actions.remove': { uri: 'yes' } } } }] })] }, 'sources[0].steps[0].params.fixParams.actions.remove.uri', /uri must be true or false/],
    ['a PDF/A level its part does not have', { sources: [src({ steps: [{ type: 'autofix', params: { fixParams: { 'pdfa.prepare': { part: 1, conformance: 'u' } } } }] })] }, 'sources[0].steps[0].params.fixParams.pdfa.prepare', /PDF\/A-1U is not a level this fix prepares .* PDF\/A-1 has the levels a, b/],
    ['PDF/A-4 with a level of parts 1-3', { sources: [src({ steps: [{ type: 'autofix', params: { fixParams: { 'pdfa.prepare': { part: 4, conformance: 'b' } } } }] })] }, 'sources[0].steps[0].params.fixParams.pdfa.prepare', /PDF\/A-4B is not a level/],
    ['an unknown validate profile code', { sources: [src({ steps: [{ type: 'validate', params: { profile: '9z' } }] })] }, 'sources[0].steps[0].params.profile'],
    ['a previews format not offered', { sources: [src({ steps: [{ type: 'previews', params: { format: 'bmp' } }] })] }, 'sources[0].steps[0].params.format'],
    ['a previews dpi over 600', { sources: [src({ steps: [{ type: 'previews', params: { dpi: 1200 } }] })] }, 'sources[0].steps[0].params.dpi'],
    ['a bad pages range', { sources: [src({ steps: [{ type: 'previews', params: { pages: '1-' } }] })] }, 'sources[0].steps[0].params.pages'],
    ['a ruleId of the wrong shape', { sources: [src()], ruleId: 'r1' }, 'ruleId', /rule_/],
    ['an unknown channel', { sources: [src()], channel: 'fax' }, 'channel', /api.*store.*admin/],
    ['an orderId over 128 characters', { sources: [src()], orderId: 'o'.repeat(129) }, 'orderId'],
    ['a customerId over 128 characters', { sources: [src()], customerId: 'c'.repeat(129) }, 'customerId'],
    ['a customerEmail that is not an address', { sources: [src()], customerEmail: 'nobody' }, 'customerEmail'],
    ['an unknown policy', { sources: [src()], policy: { onFail: 'ignore' } }, 'policy.onFail'],
    ['an unknown policy field', { sources: [src()], policy: { onFail: 'reject', x: 1 } }, 'policy.x'],
    ['an unknown context field', { sources: [src()], context: { colour: 'red' } }, 'context.colour'],
    ['a context range with min over max', { sources: [src()], context: { pageCount: { min: 3, max: 2 } } }, 'context.pageCount', /min must not exceed max/],
    ['a negative bleed', { sources: [src()], context: { bleed: { required_mm: -1 } } }, 'context.bleed.required_mm'],
    ['metaData that is not an object', { sources: [src()], metaData: [1] }, 'metaData'],
    ['metaData over 16 KB', { sources: [src()], metaData: { big: 'x'.repeat(16 * 1024) } }, 'metaData', /16384 bytes/],
    ['a webhook that is neither string nor object', { sources: [src()], webhook: 42 }, 'webhook', /URL string or \{ url, headers\? \}/],
    ['a webhook object with a bad url', { sources: [src()], webhook: { url: 3 } }, 'webhook.url'],
    ['a webhook object with an unknown field', { sources: [src()], webhook: { url: 'http://127.0.0.1/h', secret: 'x' } }, 'webhook.secret'],
    ['a webhook URL the network policy refuses', { sources: [src()], webhook: 'http://192.168.1.2/hook' }, 'webhook.url'],
    ['sync that is not a boolean', { sources: [src()], sync: 'yes' }, 'sync'],
  ];

  it.each(cases)('refuses %s', async (_what, body, param, message) => {
    await expect400('/jobs', body, param, message);
  });

  // A profile may be the account's own, so only the store can tell: 400 profile_not_found, not a schema error.
  it('refuses an unknown preflight profile with profile_not_found at the field that named it', async () => {
    const body = { sources: [src({ steps: [{ type: 'preflight', params: { profileId: 'gwg-nope' } }] })] };
    await expect400('/jobs', body, 'sources[0].steps[0].params.profileId', /unknown preflight profile "gwg-nope"/, 'profile_not_found');
    await expect400('/jobs/preflight', { sources: [{ url: URL_SOURCE, profileId: 'nope' }] }, 'sources[0].profileId', /unknown preflight profile/, 'profile_not_found');
    await expect400('/jobs/fix', { sources: [{ url: URL_SOURCE, profileId: 'nope' }] }, 'sources[0].profileId', /unknown preflight profile/, 'profile_not_found');
  });

  it('refuses an empty JSON body as a missing object', async () => {
    const res = await call('POST', '/jobs', { rawBody: '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^request body: /) });
    expect(res.body.param).toBeUndefined();
  });

  it('keeps unknown fields inside metaData and params', async () => {
    const res = await call('POST', '/jobs', {
      body: { sources: [src({ steps: [{ type: 'previews', params: { future: true } }] })], metaData: { anything: 1 } },
    });
    expect(res.status).toBe(201);
  });

  it('accepts null for the optional nullable fields', async () => {
    const res = await call('POST', '/jobs', {
      body: { sources: [src({ name: null, clientRef: null })], orderId: null, customerId: null, customerEmail: null, ruleId: null, metaData: null, webhook: null, context: null, policy: null },
    });
    expect(res.status).toBe(201);
    expect(res.body.job).toMatchObject({ orderId: null, customerEmail: null, policy: { onFail: 'reject' }, channel: 'api' });
  });

  it('accepts URL-safe base64, data URLs and line-wrapped base64', async () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x25, 0x50, 0x44, 0x46]);
    for (const file of [bytes.toString('base64url'), `data:application/pdf;base64,${bytes.toString('base64')}`, bytes.toString('base64').replace(/(.{4})/g, '$1\n')]) {
      const res = await call('POST', '/jobs', { body: { sources: [{ file, steps: [{ type: 'preflight' }] }] } });
      expect(res.status, file).toBe(201);
      const stored = await t.services.jobs.getGraphById(res.body.job.id);
      const locator = stored!.tasks[0]!.locator;
      expect(locator.kind === 'inline' && Buffer.from(await t.services.blobs.getBytes(locator.key)).equals(bytes)).toBe(true);
    }
  });
});

describe('convenience endpoint validation', () => {
  const cases: [string, string, unknown, string | undefined, (RegExp | string)?][] = [
    ['/jobs/preflight', 'steps (not taken here)', { sources: [src()] }, 'sources[0].steps', /unknown field/],
    ['/jobs/preflight', 'POST /jobs-only fields', { sources: [{ url: URL_SOURCE }], orderId: 'o' }, 'orderId', /unknown field/],
    ['/jobs/preflight', 'two locators', { sources: [{ url: URL_SOURCE, file: FILE }] }, 'sources[0]'],
    ['/jobs/preflight', 'no sources', { sources: [] }, 'sources'],
    ['/jobs/fix', 'an unknown fix', { sources: [{ url: URL_SOURCE, items: ['nope'] }] }, 'sources[0].items[0]', /unknown fix/],
    ['/jobs/fix', 'a bad fix parameter', { sources: [{ url: URL_SOURCE, fixParams: { 'actions.remove': { uri: 1 } } }] }, 'sources[0].fixParams.actions.remove.uri', /uri must be true or false/],
    ['/jobs/fix', 'repreflight that is not a boolean', { sources: [{ url: URL_SOURCE }], repreflight: 'yes' }, 'repreflight'],
    ['/jobs/validate', 'a missing profile', { sources: [{ url: URL_SOURCE }] }, 'sources[0].profile', 'sources[0].profile: is required'],
    ['/jobs/validate', 'an unknown profile code', { sources: [{ url: URL_SOURCE, profile: '5x' }] }, 'sources[0].profile'],
    ['/jobs/validate', 'an unknown code in an array', { sources: [{ url: URL_SOURCE, profile: ['2b', 'zz'] }] }, 'sources[0].profile[1]'],
    ['/jobs/validate', 'an empty array of codes', { sources: [{ url: URL_SOURCE, profile: [] }] }, 'sources[0].profile'],
    ['/jobs/validate', 'the sync flag (validate takes async)', { sources: [{ url: URL_SOURCE, profile: 'auto' }], sync: true }, 'sync', /unknown field/],
    ['/jobs/previews', 'bad params', { sources: [{ url: URL_SOURCE, params: { quality: 0 } }] }, 'sources[0].params.quality'],
    ['/jobs/previews', 'more than 50 sources', { sources: Array.from({ length: 51 }, () => ({ url: URL_SOURCE })) }, 'sources'],
  ];

  it.each(cases)('%s refuses %s', async (path, _what, body, param, message) => {
    await expect400(path, body, param, message);
  });
});

describe('other bodies', () => {
  it('POST /uploads needs a size from 1 to 524288000, and a well-formed MIME type when one is given', async () => {
    await expect400('/uploads', { mimeType: 'application/pdf', sizeBytes: 0 }, 'sizeBytes');
    await expect400('/uploads', { mimeType: 'application/pdf', sizeBytes: 524_288_001 }, 'sizeBytes');
    await expect400('/uploads', { mimeType: 'application/pdf', sizeBytes: 1.5 }, 'sizeBytes');
    await expect400('/uploads', { mimeType: 'pdf', sizeBytes: 10 }, 'mimeType', /MIME type/);
    await expect400('/uploads', { mimeType: 'application/pdf' }, 'sizeBytes', 'sizeBytes: is required');
    await expect400('/uploads', { mimeType: 'application/pdf', sizeBytes: 10, name: 'x' }, 'name', /unknown field/);
  });
});
