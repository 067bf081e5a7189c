/**
 * The local S3 endpoint: a loopback proxy in front of s3rver. The services'
 * S3 client and every presigned URL point here. Requests pass to s3rver
 * unchanged (it checks SigV4 headers and presigned GET signatures itself), with
 * three exceptions where s3rver is more permissive than S3:
 *
 * - browser-style POST uploads (multipart/form-data to the bucket): s3rver
 *   ignores the policy, so the gateway enforces it as S3 does (post-policy.ts),
 *   streaming the file to a temporary file while counting its bytes, refusing it
 *   past the policy's maximum, and only then putting it into s3rver (streamed,
 *   never held in memory);
 * - presigned URLs: s3rver does not verify Signature Version 4 at all, so the
 *   gateway checks their signature and expiry (presigned-url-check.ts);
 * - unsigned requests: s3rver serves them, S3 refuses them on a private bucket,
 *   so the gateway answers 403;
 * - CORS: the gateway answers preflights and adds the CORS headers itself, for
 *   the console's origins only, as the bucket's CORS rule does (storage-cors.ts).
 *
 * Header-signed requests (the services' own S3 client) pass unverified: they
 * come from this process with the stand-in's credentials.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { authorisePost, objectKey, S3Refusal, type AcceptedPost, type FormFields } from './post-policy';
import { isPresignedV4, verifyPresignedRequest } from './presigned-url-check';
import { S3RVER_TOKEN_HEADER, s3rverClient } from './standins';
import { holdIdleConnections } from './keep-alive';
import { corsHeaders, preflightAnswer } from './storage-cors';
import { componentLog, type ComponentLog } from '../lambdas/observability/logger';

export interface StorageGatewayOptions {
  /** s3rver's base URL (http://127.0.0.1:port). */
  upstream: string;
  /** The token s3rver's port admits (standins.ts). */
  upstreamToken: string;
  /** 0 = ephemeral. */
  port: number;
  host?: string;
  /** Browser origins allowed to read its answers (the console's); default none. */
  corsOrigins?: readonly string[];
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  log?: ComponentLog;
  /** Told of every request as it arrives (refused ones too: S3 bills those), for the cost model. */
  onRequest?: (method: string, url: string) => void;
}

export interface StorageGateway {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Form fields are small; the file part is the only large one. */
const FIELD_LIMITS = { fields: 200, fieldSize: 1024 * 1024, files: 1, parts: 210 } as const;
/** How long a refused upload may go on sending before its connection is closed. */
const DRAIN_GRACE_MS = 5_000;

export async function startStorageGateway(opts: StorageGatewayOptions): Promise<StorageGateway> {
  const upstream = new URL(opts.upstream);
  const log = opts.log ?? componentLog('storage-gateway');
  const s3rver = s3rverClient({ endpoint: opts.upstream, token: opts.upstreamToken, region: opts.region, credentials: opts.credentials });
  const tmpRoot = await mkdtemp(join(tmpdir(), 'proofline-post-'));
  const cors = { origins: opts.corsOrigins ?? [] };
  const secretFor = (id: string) => (id === opts.credentials.accessKeyId ? opts.credentials.secretAccessKey : undefined);

  const server = http.createServer((req, res) => {
    const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
    res.setHeader('x-amz-request-id', requestId);
    opts.onRequest?.(req.method ?? 'GET', req.url ?? '/');
    if (req.method === 'OPTIONS') return answerPreflight(req, res, requestId);
    for (const [name, value] of Object.entries(corsHeaders(cors, req.headers.origin))) res.setHeader(name, value);
    const bucket = browserPostBucket(req);
    if (bucket !== null) {
      void handleBrowserPost(req, res, bucket, requestId).catch((err: unknown) => {
        log('POST upload failed', err);
        reply(res, new S3Refusal(500, 'InternalError', 'We encountered an internal error. Please try again.'), requestId);
      });
      return;
    }
    try {
      if (isPresignedV4(req.url ?? '')) verifyPresignedRequest({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, secretFor, new Date());
      else if (!isSigned(req)) throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
    } catch (err) {
      req.resume();
      return reply(res, asRefusal(err), requestId);
    }
    passThrough(req, res, requestId);
  });
  holdIdleConnections(server);

  function answerPreflight(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): void {
    req.resume();
    const answer = preflightAnswer(cors, {
      origin: req.headers.origin,
      method: req.headers['access-control-request-method'],
      headers: req.headers['access-control-request-headers'],
    });
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (answer.refusal) return reply(res, new S3Refusal(answer.status, answer.refusal.code, answer.refusal.message), requestId);
    res.writeHead(answer.status, { 'Content-Length': 0 });
    res.end();
  }

  function passThrough(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): void {
    const upstreamReq = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, [S3RVER_TOKEN_HEADER]: opts.upstreamToken } },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.rawHeaders);
        upstreamRes.pipe(res);
      },
    );
    upstreamReq.on('error', (err) => {
      log('s3rver did not answer', err);
      if (!res.headersSent) reply(res, new S3Refusal(503, 'ServiceUnavailable', 'Please reduce your request rate.'), requestId);
      else res.destroy();
    });
    req.pipe(upstreamReq);
  }

  async function handleBrowserPost(req: http.IncomingMessage, res: http.ServerResponse, bucket: string, requestId: string): Promise<void> {
    const fields: FormFields = {};
    let fileSeen = false;
    let answered = false;
    const answer = (fn: () => void) => {
      if (answered) return;
      answered = true;
      fn();
    };
    /**
     * Refuses at once and stops parsing. The rest of the body is read and
     * discarded so the client can finish sending and read the answer; a client
     * that keeps sending long after (a huge file) is cut off.
     */
    const refuse = (refusal: S3Refusal) =>
      answer(() => {
        req.unpipe();
        req.resume();
        reply(res, refusal, requestId);
        if (!req.readableEnded) {
          const cutOff = setTimeout(() => req.socket.destroy(), DRAIN_GRACE_MS);
          req.once('end', () => clearTimeout(cutOff));
          req.once('close', () => clearTimeout(cutOff));
        }
      });

    let form: busboy.Busboy;
    try {
      form = busboy({ headers: req.headers, limits: FIELD_LIMITS });
    } catch {
      refuse(new S3Refusal(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'));
      return;
    }
    const fileDone = new Promise<void>((resolve) => {
      form.on('field', (name, value) => {
        // S3 ignores everything after the file.
        if (!fileSeen) fields[name.toLowerCase()] = value;
      });
      form.on('file', (name, file, info) => {
        if (fileSeen || name.toLowerCase() !== 'file') {
          file.resume();
          return;
        }
        fileSeen = true;
        let accepted: AcceptedPost;
        let key: string;
        try {
          accepted = authorisePost({ bucket, fields, secretFor, now: new Date() });
          key = objectKey(fields, info.filename);
        } catch (err) {
          file.resume();
          refuse(asRefusal(err));
          return resolve();
        }
        void storeFile(file, accepted, key, info.mimeType)
          .then((stored) => answer(() => succeed(res, fields, bucket, key, stored.etag, requestId)))
          .catch((err: unknown) => refuse(asRefusal(err)))
          .finally(resolve);
      });
      form.on('close', () => {
        if (!fileSeen) {
          refuse(new S3Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.'));
          resolve();
        }
      });
      form.on('error', () => {
        refuse(new S3Refusal(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'));
        resolve();
      });
    });
    req.pipe(form);
    await fileDone;

    /**
     * Streams the part to a temporary file, counting bytes (past the policy's
     * maximum the stream fails and nothing is stored), then streams the file
     * into s3rver. Memory use stays flat whatever the file's size.
     */
    async function storeFile(file: NodeJS.ReadableStream, accepted: AcceptedPost, key: string, partType: string): Promise<{ etag: string }> {
      const dir = await mkdtemp(join(tmpRoot, 'up-'));
      const path = join(dir, 'file');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > accepted.maxBytes) done(new S3Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(file, counter, createWriteStream(path));
        if (size < accepted.minBytes) throw new S3Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
        const put = await s3rver.send(new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: fields['content-type'] ?? (partType || 'binary/octet-stream'),
          CacheControl: fields['cache-control'],
          ContentDisposition: fields['content-disposition'],
          ContentEncoding: fields['content-encoding'],
          Metadata: metadataOf(fields),
        }));
        return { etag: put.ETag ?? '' };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      s3rver.destroy();
      await rm(tmpRoot, { recursive: true, force: true });
    },
  };
}

/** The bucket a browser-style POST upload targets, or null for any other request. */
function browserPostBucket(req: http.IncomingMessage): string | null {
  if (req.method !== 'POST') return null;
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) return null;
  const [path, query] = (req.url ?? '/').split('?', 2);
  if (query) return null;
  const m = /^\/([^/]+)\/?$/.exec(path!);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

function isSigned(req: http.IncomingMessage): boolean {
  if (req.headers.authorization) return true;
  const query = new URLSearchParams((req.url ?? '').split('?', 2)[1] ?? '');
  return query.has('X-Amz-Algorithm') || query.has('Signature');
}

function metadataOf(fields: FormFields): Record<string, string> | undefined {
  const meta = Object.entries(fields).filter(([k]) => k.startsWith('x-amz-meta-'));
  return meta.length ? Object.fromEntries(meta.map(([k, v]) => [k.slice('x-amz-meta-'.length), v])) : undefined;
}

function parseUrl(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const asRefusal = (err: unknown): S3Refusal =>
  err instanceof S3Refusal ? err : new S3Refusal(500, 'InternalError', 'We encountered an internal error. Please try again.');

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function reply(res: http.ServerResponse, refusal: S3Refusal, requestId: string): void {
  if (res.headersSent) return void res.destroy();
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${refusal.code}</Code><Message>${xmlEscape(refusal.message)}</Message>` +
    `<RequestId>${requestId}</RequestId><HostId>local</HostId></Error>`;
  res.writeHead(refusal.status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** S3's answers to a stored POST: 204 by default, or what success_action_status / _redirect ask for. */
function succeed(res: http.ServerResponse, fields: FormFields, bucket: string, key: string, etag: string, requestId: string): void {
  const host = res.req.headers.host ?? '127.0.0.1';
  const location = `http://${host}/${encodeURIComponent(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const redirect = parseUrl(fields.success_action_redirect ?? fields.redirect);
  if (redirect) {
    const to = redirect;
    to.searchParams.set('bucket', bucket);
    to.searchParams.set('key', key);
    to.searchParams.set('etag', etag);
    res.writeHead(303, { Location: to.href, ETag: etag });
    return void res.end();
  }
  const status = ['200', '201'].includes(fields.success_action_status ?? '') ? Number(fields.success_action_status) : 204;
  if (status === 201) {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<PostResponse><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(bucket)}</Bucket>` +
      `<Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></PostResponse>`;
    res.writeHead(201, { 'Content-Type': 'application/xml', ETag: etag, Location: location, 'Content-Length': Buffer.byteLength(body) });
    return void res.end(body);
  }
  res.writeHead(status, { ETag: etag, Location: location, 'x-amz-request-id': requestId });
  res.end();
}
