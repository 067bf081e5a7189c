import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { downloadSource, type SourceDownloadOptions } from '../../../lambdas/steps/source-download';
import { UnprocessableFileError } from '../../../lambdas/domain/errors';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let route: Handler = (_req, res) => res.end();
let seen: http.IncomingMessage[] = [];
let server: http.Server;
let base: string;
const dirs: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req);
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(async () => {
  seen = [];
  server.closeAllConnections();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function fetchTo(url: string, opts: Partial<SourceDownloadOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'download-test-'));
  dirs.push(dir);
  const destPath = join(dir, 'source');
  const result = await downloadSource(url, { destPath, maxBytes: 1024 * 1024, timeoutMs: 5000, mode: 'local', ...opts });
  return { ...result, bytes: await readFile(destPath) };
}

async function refusal(url: string, opts: Partial<SourceDownloadOptions> = {}): Promise<string> {
  const err = await fetchTo(url, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnprocessableFileError);
  return (err as Error).message;
}

const payload = Buffer.from('%PDF-1.7\n' + 'x'.repeat(5000));

describe('downloading a URL source', () => {
  it('streams the body to the file and reports its size and status', async () => {
    route = (_req, res) => res.end(payload);
    const got = await fetchTo(`${base}/card.pdf`);
    expect(got.bytes.equals(payload)).toBe(true);
    expect(got).toMatchObject({ sizeBytes: payload.length, statusCode: 200, finalUrl: `${base}/card.pdf` });
  });

  it("sends the task's headers along, and offers the encodings it can decode", async () => {
    route = (_req, res) => res.end(payload);
    await fetchTo(`${base}/private.pdf`, { headers: { Authorization: 'Bearer shop-token', 'X-Shop': '42' } });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer shop-token', 'x-shop': '42', 'accept-encoding': 'gzip, deflate, br' });
  });

  it('follows up to 3 redirects and refuses a 4th', async () => {
    route = (req, res) => {
      const n = Number(req.url!.slice(1));
      if (n > 0) {
        res.writeHead(302, { location: `/${n - 1}` });
        res.end();
      } else res.end(payload);
    };
    const got = await fetchTo(`${base}/3`);
    expect(got.finalUrl).toBe(`${base}/0`);
    expect(got.sizeBytes).toBe(payload.length);
    expect(await refusal(`${base}/4`)).toBe('The source URL redirected more than 3 times.');
  });

  it('turns a non-2xx answer into a reason naming the status', async () => {
    route = (_req, res) => {
      res.writeHead(404);
      res.end('not here');
    };
    expect(await refusal(`${base}/missing.pdf`)).toBe('The source URL answered HTTP 404.');
  });

  it('decompresses gzip, zlib deflate, raw deflate and brotli transfer encodings', async () => {
    const encoded: Record<string, Buffer> = {
      gzip: zlib.gzipSync(payload),
      deflate: zlib.deflateSync(payload),
      'raw-deflate': zlib.deflateRawSync(payload),
      br: zlib.brotliCompressSync(payload),
    };
    for (const [name, body] of Object.entries(encoded)) {
      route = (_req, res) => {
        res.writeHead(200, { 'content-encoding': name === 'raw-deflate' ? 'deflate' : name });
        res.end(body);
      };
      const got = await fetchTo(`${base}/${name}`);
      expect(got.bytes.equals(payload), name).toBe(true);
      expect(got.sizeBytes).toBe(payload.length);
    }
  });

  it('counts the size after decompression: a small gzip that inflates past the cap is refused', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    route = (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    };
    expect(await refusal(`${base}/bomb.pdf`, { maxBytes: 1024 * 1024 })).toBe('The source is larger than 1 MB.');
  });

  it('refuses a declared length over the cap without reading the body', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-length': String(3 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      // Never finishes: only the header can have decided.
    };
    expect(await refusal(`${base}/huge.pdf`, { maxBytes: 2 * 1024 * 1024 })).toBe('The source is larger than 2 MB.');
  });

  it('refuses data that does not decode, and encodings it does not know', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(Buffer.from('certainly not gzip data'));
    };
    expect(await refusal(`${base}/corrupt.pdf`)).toBe('The source URL sent gzip-encoded data that could not be decoded.');
    route = (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd' });
      res.end(payload);
    };
    expect(await refusal(`${base}/zstd.pdf`)).toBe('The source URL sent the file with an encoding Proofline cannot decode (zstd).');
  });

  it('gives up on a server that does not answer in time, and on one that stops sending', async () => {
    route = () => undefined; // never answers
    expect(await refusal(`${base}/silent.pdf`, { timeoutMs: 300 })).toBe('The source URL did not answer within 1 s.');
    route = (_req, res) => {
      res.writeHead(200);
      res.write(payload.subarray(0, 100)); // then silence
    };
    expect(await refusal(`${base}/stalled.pdf`, { timeoutMs: 300 })).toMatch(/^The source URL (stopped sending the file for more than|did not deliver the file within) 1 s\.$/);
  });

  it('gives up on a download that keeps trickling past the overall deadline', async () => {
    route = (_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    };
    const started = Date.now();
    expect(await refusal(`${base}/drip.pdf`, { timeoutMs: 600 })).toBe('The source URL did not deliver the file within 1 s.');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('explains refused URLs and unreachable servers in words', async () => {
    expect(await refusal(`${base}/card.pdf`, { mode: 'cloud' })).toBe('The source URL was refused: only https URLs are allowed, not http.');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await refusal(`http://127.0.0.1:${port}/card.pdf`)).toBe('The source URL refused the connection.');
  });

  it('stops a raw-deflate bomb at the cap too', async () => {
    const bomb = zlib.deflateRawSync(Buffer.alloc(16 * 1024 * 1024));
    route = (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate' });
      res.end(bomb);
    };
    expect(await refusal(`${base}/bomb.pdf`, { maxBytes: 1024 * 1024 })).toBe('The source is larger than 1 MB.');
  });
});
