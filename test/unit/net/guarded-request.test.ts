import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import {
  guardedRequest,
  RequestTimeoutError,
  TooManyRedirectsError,
  UrlNotAllowedError,
} from '../../../lambdas/platform/net/guarded-request';
import type { LookupFunction } from '../../../lambdas/platform/net/guarded-lookup';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One loopback server whose routes the tests define; it records every request. */
let server: http.Server;
let base: string;
const seen: Seen[] = [];
const stalled = new Set<http.ServerResponse>();

const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void> = {
  '/ok': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'x-kind': 'ok' }).end('hello'),
  '/echo': (req, res, body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body })),
  '/r301': (_req, res) => res.writeHead(301, { location: '/r302' }).end(),
  '/r302': (_req, res) => res.writeHead(302, { location: `${base}/ok` }).end(),
  '/see-other': (_req, res) => res.writeHead(303, { location: '/echo' }).end(),
  '/temporary': (_req, res) => res.writeHead(307, { location: '/echo' }).end(),
  '/permanent': (_req, res) => res.writeHead(308, { location: '/echo' }).end(),
  '/found-post': (_req, res) => res.writeHead(302, { location: '/echo' }).end(),
  '/to-localhost': (_req, res) => res.writeHead(302, { location: `http://localhost:${new URL(base).port}/echo` }).end(),
  '/to-ftp': (_req, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/file.pdf' }).end(),
  '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  '/to-private': (_req, res) => res.writeHead(302, { location: 'http://10.20.30.40/secret' }).end(),
  '/to-metadata': (_req, res) => res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/no-location': (_req, res) => res.writeHead(302).end('moved, somewhere'),
  '/never': (_req, res) => { stalled.add(res); },
  '/stall-body': (_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('first part;'); stalled.add(res); },
  '/slow-redirect': (_req, res) => { setTimeout(() => res.writeHead(302, { location: '/never' }).end(), 150); },
};
for (let i = 0; i < 6; i++) routes[`/loop${i}`] = (_req, res) => res.writeHead(302, { location: `/loop${i + 1}` }).end();
routes['/loop6'] = (_req, res) => res.writeHead(200).end('end of loop');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const route = routes[new URL(req.url!, 'http://x').pathname];
      if (route) route(req, res, body);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  seen.length = 0;
  for (const res of stalled) res.destroy();
  stalled.clear();
  vi.restoreAllMocks();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const local = { mode: 'local' as const, timeoutMs: 2000, maxRedirects: 5 };

describe('guardedRequest in the local runtime', () => {
  it('returns the status, headers, body stream and final URL of a loopback request', async () => {
    const res = await guardedRequest(`${base}/ok`, local);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-kind']).toBe('ok');
    expect(await text(res.body)).toBe('hello');
    expect(res.finalUrl).toBe(`${base}/ok`);
  });

  it('sends a POST body with its length and the given headers', async () => {
    const res = await guardedRequest(`${base}/echo`, { ...local, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-extra': 'yes' } });
    expect(JSON.parse(await text(res.body))).toEqual({ method: 'POST', body: '{"a":1}' });
    expect(seen[0]!.headers['content-length']).toBe('7');
    expect(seen[0]!.headers['x-extra']).toBe('yes');
  });

  it('follows a chain of redirects, relative and absolute, and reports where it ended', async () => {
    const res = await guardedRequest(`${base}/r301`, local);
    expect(res.statusCode).toBe(200);
    expect(await text(res.body)).toBe('hello');
    expect(res.finalUrl).toBe(`${base}/ok`);
    expect(seen.map((s) => s.url)).toEqual(['/r301', '/r302', '/ok']);
  });

  it('turns a POST into a GET without a body after 303, and after 301/302', async () => {
    for (const path of ['/see-other', '/found-post']) {
      seen.length = 0;
      const res = await guardedRequest(`${base}${path}`, { ...local, method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
      expect(JSON.parse(await text(res.body))).toEqual({ method: 'GET', body: '' });
      expect(seen[1]!.headers['content-type']).toBeUndefined();
    }
  });

  it('keeps the method and body across 307 and 308', async () => {
    for (const path of ['/temporary', '/permanent']) {
      const res = await guardedRequest(`${base}${path}`, { ...local, method: 'POST', body: 'payload' });
      expect(JSON.parse(await text(res.body))).toEqual({ method: 'POST', body: 'payload' });
    }
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const res = await guardedRequest(`${base}/to-localhost`, { ...local, headers: { authorization: 'Bearer s3cret', 'x-other': 'kept' } });
    await text(res.body);
    expect(seen[0]!.headers.authorization).toBe('Bearer s3cret');
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.headers['x-other']).toBe('kept');
  });

  it('keeps credentials on a redirect within the origin', async () => {
    const res = await guardedRequest(`${base}/temporary`, { ...local, headers: { authorization: 'Bearer s3cret' } });
    await text(res.body);
    expect(seen[1]!.headers.authorization).toBe('Bearer s3cret');
  });

  it('throws TooManyRedirectsError past the redirect limit', async () => {
    await expect(guardedRequest(`${base}/loop0`, { ...local, maxRedirects: 5 })).rejects.toBeInstanceOf(TooManyRedirectsError);
    expect(seen).toHaveLength(6);
    seen.length = 0;
    const res = await guardedRequest(`${base}/loop0`, { ...local, maxRedirects: 6 });
    expect(await text(res.body)).toBe('end of loop');
  });

  it('returns a redirect as the response when redirects are not followed (maxRedirects 0)', async () => {
    const res = await guardedRequest(`${base}/r302`, { ...local, maxRedirects: 0 });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${base}/ok`);
    res.body.resume();
    expect(seen).toHaveLength(1);
  });

  it('returns a redirect without a Location as it is', async () => {
    const res = await guardedRequest(`${base}/no-location`, local);
    expect(res.statusCode).toBe(302);
    expect(await text(res.body)).toBe('moved, somewhere');
  });

  it('refuses a redirect to a scheme other than http or https', async () => {
    for (const path of ['/to-ftp', '/to-file']) {
      const err = await guardedRequest(`${base}${path}`, local).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UrlNotAllowedError);
      expect((err as UrlNotAllowedError).reason).toMatch(/only http and https/);
    }
  });

  it('refuses a redirect to an address off the machine without connecting to it', async () => {
    const connect = vi.spyOn(http.Agent.prototype, 'createConnection');
    for (const path of ['/to-private', '/to-metadata']) {
      const err = await guardedRequest(`${base}${path}`, local).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UrlNotAllowedError);
      expect((err as UrlNotAllowedError).reason).toMatch(/not a loopback address/);
    }
    // One connection per request: the loopback server only.
    expect(connect).toHaveBeenCalledTimes(2);
    for (const call of connect.mock.calls) expect((call[0] as net.NetConnectOpts & { host?: string }).host).toBe('127.0.0.1');
  });

  it('refuses a non-loopback literal before opening any socket', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const agentConnect = vi.spyOn(http.Agent.prototype, 'createConnection');
    for (const url of ['http://10.0.0.1/file.pdf', 'http://[fd00:ec2::254]/', 'http://192.0.2.1:8080/', 'https://93.184.216.34/']) {
      const err = await guardedRequest(url, local).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(UrlNotAllowedError);
    }
    expect(connect).not.toHaveBeenCalled();
    expect(agentConnect).not.toHaveBeenCalled();
  });

  it('refuses a loopback name that resolves off the machine, at connect time', async () => {
    const asked: string[] = [];
    const lying: LookupFunction = (host, _opts, cb) => {
      asked.push(host);
      cb(null, [{ address: '192.0.2.55', family: 4 }]);
    };
    const port = new URL(base).port;
    const err = await guardedRequest(`http://localhost:${port}/ok`, { ...local, resolve: lying }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    expect((err as UrlNotAllowedError).reason).toMatch(/localhost resolves to 192\.0\.2\.55/);
    // The socket's own lookup refused the answer, so no address was dialled.
    expect(asked).toEqual(['localhost']);
    expect(seen).toHaveLength(0);
  });

  it('reaches a loopback name that resolves to loopback', async () => {
    const res = await guardedRequest(`http://localhost:${new URL(base).port}/ok`, local);
    expect(await text(res.body)).toBe('hello');
  });

  it('times out when no response headers arrive', async () => {
    const started = Date.now();
    const err = await guardedRequest(`${base}/never`, { ...local, timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('counts redirects against the same deadline', async () => {
    const started = Date.now();
    const err = await guardedRequest(`${base}/slow-redirect`, { ...local, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('fails the body stream when the body stalls longer than the timeout', async () => {
    const res = await guardedRequest(`${base}/stall-body`, { ...local, timeoutMs: 200 });
    expect(res.statusCode).toBe(200);
    await expect(text(res.body)).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('frees the connection of a stalled body that nobody reads', async () => {
    const res = await guardedRequest(`${base}/stall-body`, { ...local, timeoutMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(res.body.destroyed).toBe(true);
  });

  it('reports a refused connection as the network error it is', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(guardedRequest(`http://127.0.0.1:${port}/`, local)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('guardedRequest in the cloud', () => {
  const cloud = { mode: 'cloud' as const, timeoutMs: 2000, maxRedirects: 5 };

  it('refuses http, loopback and private literals before opening any socket', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    for (const url of [`${base}/ok`, 'https://127.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/', 'https://localhost/', 'https://10.0.0.8/']) {
      const err = await guardedRequest(url, cloud).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(UrlNotAllowedError);
    }
    expect(connect).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  it('refuses a public-looking name that resolves to loopback (DNS rebinding), at connect time', async () => {
    const rebinding: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const err = await guardedRequest('https://files.example.com/a.pdf', { ...cloud, resolve: rebinding }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    expect((err as UrlNotAllowedError).reason).toMatch(/files\.example\.com resolves to 127\.0\.0\.1 \(a loopback address\)/);
    expect((err as UrlNotAllowedError).url).toBe('https://files.example.com/a.pdf');
  });

  it('refuses a name that resolves to the metadata address through IPv4-mapped IPv6', async () => {
    const mapped: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: '::ffff:169.254.169.254', family: 6 }]);
    await expect(guardedRequest('https://files.example.com/', { ...cloud, resolve: mapped })).rejects.toBeInstanceOf(UrlNotAllowedError);
  });
});
