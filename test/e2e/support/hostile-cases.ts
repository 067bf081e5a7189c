/**
 * Requests a careless or hostile client sends (issue 16): malformed,
 * oversized, deeply nested, ambiguous, unicode, injection and traversal
 * cases across every endpoint. Each must be answered by a 4xx in the error
 * shape, before anything is created. hostile-input.test.ts sends them.
 */

export interface HostileCase {
  /** What the case is, as the test's name. */
  name: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  path: string;
  /** A JSON value to send (stringified), or a raw body. */
  body?: unknown;
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** null: no Authorization header; a string: sent as the whole header value. */
  authorization?: string | null;
  /** The status wanted; by default any 4xx. */
  status?: number;
  /** The error code wanted, when one is certain. */
  code?: string;
}

const PDF_BASE64 = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const JOB_ENDPOINTS = ['/jobs', '/jobs/preflight', '/jobs/fix', '/jobs/validate', '/jobs/previews', '/jobs/optimize'] as const;

/** A minimal valid body of each job endpoint, with `extra` merged into it and `source` into its one source. */
function body(endpoint: (typeof JOB_ENDPOINTS)[number], extra: Record<string, unknown> = {}, source: Record<string, unknown> = {}): Record<string, unknown> {
  const steps = endpoint === '/jobs' ? { steps: [{ type: 'preflight' }] } : {};
  return { sources: [{ file: PDF_BASE64, ...steps, ...source }], ...extra };
}

const JSON_TYPE = { 'content-type': 'application/json' };

const nest = (levels: number, leaf: string, open: string, close: string): string => `${open.repeat(levels)}${leaf}${close.repeat(levels)}`;

function malformedJson(): HostileCase[] {
  const texts: [string, string][] = [
    ['an unclosed object', '{'],
    ['an unclosed array', '['],
    ['a missing value', '{"sources":}'],
    ['a trailing comma', '{"sources":[],}'],
    ['NaN', '{"metaData":{"n":NaN}}'],
    ['single quotes', "{'sources':[]}"],
    ['a comment', '{"sources":[] /* hi */}'],
    ['two documents', '{}{}'],
    ['a bare string', '"sources"'],
    ['a bare number', '42'],
    ['null', 'null'],
    ['an array', '[]'],
    ['a NUL character', '\u0000'],
  ];
  const out: HostileCase[] = [];
  for (const endpoint of JOB_ENDPOINTS) {
    for (const [what, raw] of texts) out.push({ name: `${endpoint}: ${what}`, method: 'POST', path: endpoint, raw, headers: JSON_TYPE });
  }
  out.push({ name: '/uploads: bytes that are not UTF-8', method: 'POST', path: '/uploads', raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: JSON_TYPE });
  return out;
}

function nestingAndNumbers(): HostileCase[] {
  const out: HostileCase[] = [];
  for (const endpoint of JOB_ENDPOINTS) {
    const sources = JSON.stringify(body(endpoint).sources);
    out.push(
      { name: `${endpoint}: metaData nested 5000 objects`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":${nest(5000, '1', '{"a":', '}')}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: metaData nested 5000 arrays`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"a":${nest(5000, '1', '[', ']')}}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: metaData nested 40 levels`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":${nest(40, '1', '{"a":', '}')}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: params nested 5000 levels`, method: 'POST', path: endpoint, raw: JSON.stringify(body(endpoint)).replace(/}$/, `,"context":${nest(5000, '1', '{"a":', '}')}}`), status: 400 },
      { name: `${endpoint}: a metaData number beyond a double`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"n":1e400}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: a metaData integer beyond 2^53`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"n":9007199254740993}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: a metaData number the store cannot hold`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"n":1e200}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: a metaData number too small to store`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"n":1e-200}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: a duplicate key`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"sources":${sources}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: __proto__ in metaData`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"__proto__":{"admin":true}}}`, status: 400, code: 'validation_error' },
      { name: `${endpoint}: constructor deep in metaData`, method: 'POST', path: endpoint, raw: `{"sources":${sources},"metaData":{"a":{"b":[{"constructor":{"prototype":1}}]}}}`, status: 400, code: 'validation_error' },
    );
  }
  out.push({ name: '/uploads: sizeBytes beyond a double', method: 'POST', path: '/uploads', raw: '{"sizeBytes":1e400}', status: 400, code: 'validation_error' });
  return out.map((c) => ({ ...c, headers: JSON_TYPE }));
}

function fieldsAndTypes(): HostileCase[] {
  const out: HostileCase[] = [];
  for (const endpoint of JOB_ENDPOINTS) {
    out.push(
      { name: `${endpoint}: sources is an object`, method: 'POST', path: endpoint, body: { sources: { file: PDF_BASE64 } }, status: 400, code: 'validation_error' },
      { name: `${endpoint}: no sources`, method: 'POST', path: endpoint, body: { sources: [] }, status: 400, code: 'validation_error' },
      { name: `${endpoint}: 1000 sources`, method: 'POST', path: endpoint, body: { sources: Array.from({ length: 1000 }, () => body(endpoint).sources as unknown[]).flat() }, status: 400, code: 'validation_error' },
      { name: `${endpoint}: a source with two locators`, method: 'POST', path: endpoint, body: body(endpoint, {}, { url: 'https://example.com/a.pdf' }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: file that is not base64`, method: 'POST', path: endpoint, body: body(endpoint, {}, { file: '%%% not base64 %%%' }), status: 400 },
      { name: `${endpoint}: an unknown field`, method: 'POST', path: endpoint, body: body(endpoint, { evil: true }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: a name of 300 characters`, method: 'POST', path: endpoint, body: body(endpoint, {}, { name: `${'a'.repeat(296)}.pdf` }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: a name with a NUL`, method: 'POST', path: endpoint, body: body(endpoint, {}, { name: 'a\u0000b.pdf' }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: a name with a lone surrogate`, method: 'POST', path: endpoint, raw: JSON.stringify(body(endpoint, {}, { name: 'XX' })).replace('"XX"', '"a\\ud800.pdf"'), headers: JSON_TYPE, status: 400, code: 'validation_error' },
      { name: `${endpoint}: metaData that is an array`, method: 'POST', path: endpoint, body: body(endpoint, { metaData: [1, 2] }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: metaData over 16 KB`, method: 'POST', path: endpoint, body: body(endpoint, { metaData: { big: 'x'.repeat(17 * 1024) } }), status: 400, code: 'validation_error' },
      { name: `${endpoint}: a clientRef of 10 000 characters`, method: 'POST', path: endpoint, body: body(endpoint, {}, { clientRef: 'r'.repeat(10_000) }), status: 400, code: 'validation_error' },
    );
  }
  out.push(
    { name: '/jobs: an unknown step type', method: 'POST', path: '/jobs', body: { sources: [{ file: PDF_BASE64, steps: [{ type: 'rm -rf' }] }] }, status: 400, code: 'validation_error' },
    { name: '/jobs: 500 steps', method: 'POST', path: '/jobs', body: { sources: [{ file: PDF_BASE64, steps: Array.from({ length: 500 }, () => ({ type: 'preflight' })) }] }, status: 400, code: 'validation_error' },
    { name: '/jobs/preflight: a profile that does not exist', method: 'POST', path: '/jobs/preflight', body: { sources: [{ file: PDF_BASE64, profile: '../../etc/passwd' }] }, status: 400 },
    { name: '/jobs/validate: a profile code that does not exist', method: 'POST', path: '/jobs/validate', body: { sources: [{ file: PDF_BASE64, profile: '9z' }] }, status: 400, code: 'validation_error' },
    { name: '/jobs/previews: dpi of a billion', method: 'POST', path: '/jobs/previews', body: { sources: [{ file: PDF_BASE64, params: { dpi: 1e9 } }] }, status: 400, code: 'validation_error' },
    { name: '/jobs/optimize: a negative quality', method: 'POST', path: '/jobs/optimize', body: { sources: [{ file: PDF_BASE64, params: { raster: { quality: -5 } } }] }, status: 400, code: 'validation_error' },
    { name: '/uploads: sizeBytes 0', method: 'POST', path: '/uploads', body: { sizeBytes: 0 }, status: 400, code: 'validation_error' },
    { name: '/uploads: sizeBytes over 500 MB', method: 'POST', path: '/uploads', body: { sizeBytes: 524_288_001 }, status: 400, code: 'validation_error' },
    { name: '/uploads: sizeBytes as a string', method: 'POST', path: '/uploads', body: { sizeBytes: '100' }, status: 400, code: 'validation_error' },
    // An account's own profiles (POST /profiles, PUT /profiles/{id}): the body is judged before the key's role.
    { name: '/profiles: a check id that climbs paths', method: 'POST', path: '/profiles', body: { name: 'x', kind: 'pdf', base: 'default', checks: { '../../etc/passwd': {} } }, status: 400, code: 'validation_error' },
    { name: '/profiles: __proto__ as a check id', method: 'POST', path: '/profiles', raw: '{"name":"x","kind":"pdf","base":"default","checks":{"__proto__":{"severity":"off"}}}', headers: JSON_TYPE, status: 400, code: 'validation_error' },
    { name: '/profiles: a threshold of 1e308', method: 'POST', path: '/profiles', body: { name: 'x', kind: 'pdf', base: 'default', checks: { 'colour.tac': { thresholds: { max_percent: 1e308 } } } }, status: 400, code: 'validation_error' },
    { name: '/profiles: a name of 10 000 characters', method: 'POST', path: '/profiles', body: { name: 'n'.repeat(10_000), kind: 'pdf', base: 'default' }, status: 400, code: 'validation_error' },
    { name: '/profiles/{id}: PUT of an unclosed object', method: 'PUT', path: '/profiles/ads', raw: '{', headers: JSON_TYPE, status: 400 },
    { name: '/profiles/{id}: PUT that is not JSON', method: 'PUT', path: '/profiles/ads', raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type' },
    { name: '/uploads: a mimeType with a header injection', method: 'POST', path: '/uploads', body: { sizeBytes: 10, mimeType: 'application/pdf\r\nx-amz-acl: public-read' }, status: 400, code: 'validation_error' },
  );
  return out;
}

function urlsAndHeaders(): HostileCase[] {
  const urls: [string, string][] = [
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['gopher:', 'gopher://127.0.0.1:6379/_FLUSHALL'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://10.0.0.1/a.pdf'],
    ['an IPv6 link-local address', 'http://[fe80::1]/a.pdf'],
    ['credentials in the URL', 'http://user:pw@127.0.0.1:9/a.pdf'],
    ['a CRLF in the URL', 'http://127.0.0.1:9/a.pdf\r\nHost: evil'],
    ['a URL of 10 000 characters', `http://127.0.0.1:9/${'a'.repeat(10_000)}`],
    ['a host name that is not loopback', 'http://example.com/a.pdf'],
    ['no host', 'http:///a.pdf'],
    ['not a URL', 'not a url'],
  ];
  const out: HostileCase[] = [];
  for (const [what, url] of urls) {
    out.push({ name: `source url: ${what}`, method: 'POST', path: '/jobs/preflight', body: { sources: [{ url }] }, status: 400, code: 'validation_error' });
    out.push({ name: `webhook: ${what}`, method: 'POST', path: '/jobs/preflight', body: { webhook: url, sources: [{ file: PDF_BASE64 }] }, status: 400, code: 'validation_error' });
  }
  out.push(
    { name: 'source headers: a CRLF in a value', method: 'POST', path: '/jobs/preflight', body: { sources: [{ url: 'http://127.0.0.1:9/a.pdf', headers: { 'X-A': 'b\r\nX-Injected: 1' } }] }, status: 400, code: 'validation_error' },
    { name: 'source headers: a name that is not a token', method: 'POST', path: '/jobs/preflight', body: { sources: [{ url: 'http://127.0.0.1:9/a.pdf', headers: { 'Bad Name:': 'x' } }] }, status: 400, code: 'validation_error' },
    { name: 'webhook headers: a CRLF in a value', method: 'POST', path: '/jobs/preflight', body: { webhook: { url: 'http://127.0.0.1:9/h', headers: { 'X-A': 'b\r\nX-Injected: 1' } }, sources: [{ file: PDF_BASE64 }] }, status: 400, code: 'validation_error' },
  );
  return out;
}

function pathsQueriesAndTransport(): HostileCase[] {
  const out: HostileCase[] = [];
  // A bare `..` (or `%2e%2e`) never reaches the server: the client's URL parser climbs out of
  // /jobs and asks for `/`, the console's page, which needs no key and holds no data.
  for (const id of ['..%2F..%2Fetc%2Fpasswd', '%00', 'job_%0d%0aX-Injected:1', `job_${'9'.repeat(500)}`, '%E0%A4%A', "job_' OR '1'='1", '..%00', '...']) {
    out.push({ name: `GET /jobs/${id}`, method: 'GET', path: `/jobs/${id}` });
    out.push({ name: `DELETE /jobs/${id}`, method: 'DELETE', path: `/jobs/${id}` });
    out.push({ name: `POST /jobs/${id}/review`, method: 'POST', path: `/jobs/${id}/review`, body: { decision: 'approve' } });
    out.push({ name: `POST /jobs/${id}/share`, method: 'POST', path: `/jobs/${id}/share`, body: {} });
    out.push({ name: `DELETE /jobs/${id}/share`, method: 'DELETE', path: `/jobs/${id}/share` });
  }
  out.push({ name: 'GET /jobs/{id}?expand=everything', method: 'GET', path: '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x?expand=everything', status: 400, code: 'validation_error' });
  for (const id of ['..%2Fprofiles', '%00', 'x'.repeat(2000)]) out.push({ name: `GET /profiles/${id.slice(0, 40)}`, method: 'GET', path: `/profiles/${id}` });
  for (const q of ['limit=-1', 'limit=1e400', 'limit=abc', 'limit=100000', 'nextKey=%%%', 'nextKey=eyJ9', `nextKey=${'A'.repeat(5000)}`, 'status=evil', 'preview=maybe']) {
    out.push({ name: `GET /jobs?${q.slice(0, 40)}`, method: 'GET', path: `/jobs?${q}`, status: 400, code: 'validation_error' });
  }
  out.push(
    { name: 'a share link of 30 days and a second', method: 'POST', path: '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x/share', body: { expiresInSeconds: 2_592_001 }, status: 400, code: 'validation_error' },
    { name: 'GET /share without a token', method: 'GET', path: '/share', authorization: null, status: 403, code: 'share_link_invalid' },
    { name: 'GET /share with an API key as the token', method: 'GET', path: '/share', headers: { 'share-token': 'sk_live_00000000000000000000000000000000' }, status: 403, code: 'share_link_invalid' },
    { name: 'GET /share with a forged token', method: 'GET', path: '/share', authorization: null, headers: { 'share-token': `ps1.${Buffer.from('["job_01jf8n2q4vxw9k3m5p7r9t1v3x","local",0,9999999999,1]').toString('base64url')}.AAAA` }, status: 403, code: 'share_link_invalid' },
    { name: 'GET /share with a token of 5000 characters', method: 'GET', path: '/share', authorization: null, headers: { 'share-token': `ps1.${'A'.repeat(5000)}.A` }, status: 403, code: 'share_link_invalid' },
    { name: 'a decision with a forged token', method: 'POST', path: '/share/decision', authorization: null, headers: { 'share-token': 'ps1.e30.AAAA' }, body: { decision: 'approved' }, status: 403, code: 'share_link_invalid' },
    { name: 'a decision on a share link with an unknown word', method: 'POST', path: '/share/decision', authorization: null, headers: { 'share-token': 'ps1.e30.AAAA' }, body: { decision: 'print-everything' }, status: 400, code: 'validation_error' },
    { name: 'a review with an unknown decision', method: 'POST', path: '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x/review', body: { decision: 'delete-everything' } },
    { name: 'POST /jobs as text/plain', method: 'POST', path: '/jobs', raw: JSON.stringify(body('/jobs')), headers: { 'content-type': 'text/plain' }, status: 415, code: 'unsupported_media_type' },
    { name: 'POST /jobs as multipart', method: 'POST', path: '/jobs', raw: '--x\r\n\r\n--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' }, status: 415, code: 'unsupported_media_type' },
    { name: 'POST /jobs without a content type', method: 'POST', path: '/jobs', raw: JSON.stringify(body('/jobs')), status: 415, code: 'unsupported_media_type' },
    { name: 'POST /jobs with a body over 6 MB', method: 'POST', path: '/jobs', raw: `{"sources":[{"file":"${'A'.repeat(7_000_000)}"}]}`, headers: { 'content-type': 'application/json' }, status: 413, code: 'payload_too_large' },
    { name: 'PUT /jobs', method: 'PUT', path: '/jobs', body: {}, status: 405, code: 'method_not_allowed' },
    { name: 'PATCH /jobs/{id}', method: 'PATCH', path: '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x', body: {}, status: 405, code: 'method_not_allowed' },
    { name: 'an unknown path with traversal', method: 'GET', path: '/../../etc/passwd', status: 404 },
    { name: 'no Authorization', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: null, status: 401, code: 'unauthorized' },
    { name: 'Basic instead of Bearer', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: 'Basic dXNlcjpwdw==', status: 401, code: 'unauthorized' },
    { name: 'Bearer without a token', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: 'Bearer', status: 401, code: 'unauthorized' },
    { name: 'a key that does not exist', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: 'Bearer sk_live_00000000000000000000000000000000', status: 401, code: 'unauthorized' },
    { name: 'a key with unicode', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: 'Bearer sk_live_\u00e9\u00e9', status: 401 },
    { name: 'an Authorization header of 20 KB', method: 'POST', path: '/jobs', body: body('/jobs'), authorization: `Bearer ${'k'.repeat(20_000)}`, status: 431, code: 'headers_too_large' },
    { name: 'an Idempotency-Key of 1000 characters', method: 'POST', path: '/jobs', body: body('/jobs'), headers: { 'idempotency-key': 'i'.repeat(1000) }, status: 400, code: 'validation_error' },
  );
  return out;
}

export function hostileCases(): HostileCase[] {
  return [...malformedJson(), ...nestingAndNumbers(), ...fieldsAndTypes(), ...urlsAndHeaders(), ...pathsQueriesAndTransport()];
}
