import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { startHttpServer, type HttpServer, type RouteHandler } from '../../../local/http-server';
import { createGatewayAuthorizer } from '../../../local/gateway-authorizer';
import { createThrottle } from '../../../local/throttle';

const MAX_BODY = 1000;

/** A fake authoriser: `sk_good…` is allowed, `sk_denied` gets a Deny policy, `sk_broken` fails. */
let authorizerCalls: APIGatewayTokenAuthorizerEvent[] = [];
async function fakeAuthorizer(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  authorizerCalls.push(event);
  const token = event.authorizationToken.replace(/^Bearer /, '');
  if (token === 'sk_broken') throw new Error('table unavailable');
  if (token === 'sk_nopolicy') return {} as APIGatewayAuthorizerResult;
  if (!token.startsWith('sk_good') && token !== 'sk_denied') throw new Error('Unauthorized');
  const arnRoot = event.methodArn.split('/').slice(0, 2).join('/');
  return {
    principalId: `key_${token}`,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: token === 'sk_denied' ? 'Deny' : 'Allow', Resource: `${arnRoot}/*` }] },
    context: { accountId: 'acct_1', keyId: `key_${token}`, role: 'admin', quota: 5 } as unknown as Record<string, string>,
  };
}

let seen: APIGatewayProxyEvent[] = [];
const echo: RouteHandler = async (event) => {
  seen.push(event);
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, multiValueHeaders: { 'x-multi': ['a', 'b'] }, body: JSON.stringify({ ok: true }) };
};
const handlers: Record<string, RouteHandler> = {
  health: echo,
  'get-job': echo,
  'list-jobs': echo,
  'create-job': echo,
  'delete-job': async () => { throw new Error('handler crashed'); },
  'list-profiles': async () => ({ nonsense: true }) as never,
  'get-profile': async () => ({ nonsense: true }) as never,
  'create-upload': async () => ({ statusCode: 200, body: Buffer.from([0, 1, 2, 255]).toString('base64'), isBase64Encoded: true, headers: { 'content-type': 'application/octet-stream' } }),
};

/** Sends `request` as raw bytes and returns all the server wrote before closing. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('the local HTTP front door', () => {
  let server: HttpServer;
  const url = (path: string) => `${server.url}${path}`;
  const auth = (token = 'sk_good') => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      maxBodyBytes: MAX_BODY,
      authorizer: createGatewayAuthorizer({ handler: async () => fakeAuthorizer, ttlSeconds: 30 }),
      throttle: createThrottle({ ratePerSecond: 1, burst: 3 }),
      loadHandler: async (name) => {
        const h = handlers[name];
        if (!h) throw new Error(`no fake handler ${name}`);
        return h;
      },
      log: () => {},
    });
  });
  afterAll(async () => server?.close());
  beforeEach(() => {
    seen = [];
    authorizerCalls = [];
  });

  async function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('apigw-requestid')).toBe(requestId);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ error: true, code, requestId });
    expect(typeof body.message).toBe('string');
    return body;
  }

  it('serves a public route without a key, with an x-request-id matching the handler’s request id', async () => {
    const res = await fetch(url('/health'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('x-request-id')).toBe(seen[0]!.requestContext.requestId);
    expect(res.headers.get('apigw-requestid')).toBe(seen[0]!.requestContext.requestId);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(authorizerCalls).toEqual([]);
    expect(seen[0]!.requestContext.authorizer).toBeNull();
  });

  it('answers an unknown path with 404 route_not_found', async () => {
    await expectError(await fetch(url('/nope')), 404, 'route_not_found');
    await expectError(await fetch(url('/jobs/job_1/extra')), 404, 'route_not_found');
  });

  it('answers a known path with another method with 405 and the allowed methods', async () => {
    const res = await fetch(url('/jobs'), { method: 'PUT' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(authorizerCalls).toEqual([]);
  });

  it('refuses a body over the limit with 413 payload_too_large, declared or streamed', async () => {
    const body = await expectError(await fetch(url('/jobs'), { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: 'x'.repeat(MAX_BODY + 1) }), 413, 'payload_too_large');
    expect(body.message).toMatch(/POST \/uploads/);
    const chunks = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new TextEncoder().encode('y'.repeat(400)));
        c.close();
      },
    });
    const streamed = await fetch(url('/jobs'), { method: 'POST', headers: auth(), body: chunks, duplex: 'half' } as RequestInit);
    await expectError(streamed, 413, 'payload_too_large');
    expect(seen).toEqual([]);
  });

  it('keeps an idle connection open past Node’s 5 s default, and says so in Keep-Alive', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    let closed = false;
    socket.on('close', () => (closed = true));
    const exchange = async (n: number) => {
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const deadline = Date.now() + 5000;
      const count = () => Buffer.concat(received).toString().match(/HTTP\/1\.1 200 /g)?.length ?? 0;
      while (count() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return count();
    };
    expect(await exchange(1)).toBe(1);
    expect(Buffer.concat(received).toString()).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);
    // A client whose pool still holds this socket (it was busy) must not write into a closed one.
    await new Promise((r) => setTimeout(r, 5_500));
    expect(closed).toBe(false);
    expect(await exchange(2)).toBe(2);
    socket.destroy();
  });

  it('answers headers over 16 KB with 431 headers_too_large in the error shape, and malformed HTTP with a 400, both with a request id', async () => {
    await expectError(await fetch(url('/jobs'), { headers: auth('x'.repeat(20_000)) }), 431, 'headers_too_large');
    const raw = await rawExchange(server.port, 'GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/\r\napigw-requestid: [0-9a-f-]{36}\r\n/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: true, code: 'validation_error' });
    expect(seen).toEqual([]);
    // The front door is still up.
    expect((await fetch(url('/health'))).status).toBe(200);
  });

  it('refuses a request without Authorization with 401 and WWW-Authenticate, without calling the authoriser', async () => {
    const res = await fetch(url('/jobs'));
    await expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(authorizerCalls).toEqual([]);
  });

  it('answers 401 when the authoriser says Unauthorized', async () => {
    const res = await fetch(url('/jobs'), { headers: auth('sk_wrong') });
    await expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 403 when the policy denies the method', async () => {
    await expectError(await fetch(url('/jobs'), { headers: auth('sk_denied') }), 403, 'forbidden');
  });

  it('answers 500 when the authoriser fails and 503 when it returns no policy', async () => {
    await expectError(await fetch(url('/jobs'), { headers: auth('sk_broken') }), 500, 'internal_error');
    await expectError(await fetch(url('/jobs'), { headers: auth('sk_nopolicy') }), 503, 'service_unavailable');
  });

  it('calls the authoriser with the TOKEN event and caches its answer per token', async () => {
    await fetch(url('/jobs'), { headers: auth('sk_good_cache') });
    await fetch(url('/jobs/job_1'), { headers: auth('sk_good_cache') });
    expect(authorizerCalls).toEqual([
      { type: 'TOKEN', authorizationToken: 'Bearer sk_good_cache', methodArn: 'arn:aws:execute-api:us-east-1:000000000000:local/local/GET/jobs' },
    ]);
    expect(seen).toHaveLength(2);
  });

  it('builds a REST proxy event: resource, path parameters, query, headers, authoriser context as strings', async () => {
    await fetch(url('/jobs/job_%C3%A4bc?expand=runs&tag=a&tag=b'), { headers: { ...auth('sk_good_event'), 'X-Custom': 'One' } });
    const event = seen[0]!;
    expect(event).toMatchObject({
      resource: '/jobs/{id}',
      path: '/jobs/job_%C3%A4bc',
      httpMethod: 'GET',
      pathParameters: { id: 'job_äbc' },
      queryStringParameters: { expand: 'runs', tag: 'b' },
      multiValueQueryStringParameters: { expand: ['runs'], tag: ['a', 'b'] },
      body: null,
      isBase64Encoded: false,
      stageVariables: null,
    });
    expect(event.headers['X-Custom'] ?? event.headers['x-custom']).toBe('One');
    expect(event.requestContext).toMatchObject({
      stage: 'local',
      resourcePath: '/jobs/{id}',
      httpMethod: 'GET',
      authorizer: { accountId: 'acct_1', keyId: 'key_sk_good_event', role: 'admin', quota: '5', principalId: 'key_sk_good_event' },
      identity: { sourceIp: '127.0.0.1' },
    });
  });

  it('passes a JSON body as text and a binary one base64-encoded', async () => {
    await fetch(url('/jobs'), { method: 'POST', headers: { ...auth('sk_good_body'), 'content-type': 'application/json' }, body: '{"a":"ü"}' });
    expect(seen[0]).toMatchObject({ body: '{"a":"ü"}', isBase64Encoded: false });
    await fetch(url('/jobs'), { method: 'POST', headers: { ...auth('sk_good_body'), 'content-type': 'application/pdf' }, body: new Uint8Array([37, 80, 68, 70, 0xff]) });
    expect(seen[1]).toMatchObject({ body: Buffer.from([37, 80, 68, 70, 0xff]).toString('base64'), isBase64Encoded: true });
  });

  it('decodes a base64 handler response', async () => {
    const res = await fetch(url('/uploads'), { method: 'POST', headers: auth('sk_good_b64') });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 502 bad_gateway when the handler throws or returns no proxy result', async () => {
    await expectError(await fetch(url('/jobs/job_1'), { method: 'DELETE', headers: auth('sk_good_502') }), 502, 'bad_gateway');
    await expectError(await fetch(url('/profiles'), { headers: auth('sk_good_502') }), 502, 'bad_gateway');
  });

  it('throttles each key on its own with 429 rate_limited and Retry-After', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url('/jobs'), { headers: auth('sk_good_burst') });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after');
        await expectError(res, 429, 'rate_limited');
      } else await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await fetch(url('/jobs'), { headers: auth('sk_good_other') })).status).toBe(200);
  });
});
