/**
 * Downloads a URL source to a local file: through the guarded HTTP client (scheme
 * and address rules, every redirect re-checked), decompressing the transfer
 * encoding the server chose, counting the size AFTER decompression against the
 * cap (a 1 MB gzip bomb must not become 5 GB on /tmp), within one overall
 * deadline. Everything that goes wrong on the customer's side of the wire becomes
 * an UnprocessableFileError whose message is the task's reason; only our own
 * faults (disk full, a bug) escape as other errors.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { UnprocessableFileError } from '../domain/errors';
import type { NetworkMode } from '../platform/config';
import { guardedRequest, RequestTimeoutError, TooManyRedirectsError, UrlNotAllowedError } from '../platform/net/guarded-request';

export const MAX_SOURCE_REDIRECTS = 3;

export interface SourceDownloadOptions {
  headers?: Record<string, string>;
  destPath: string;
  maxBytes: number;
  timeoutMs: number;
  mode: NetworkMode;
  /** The local runtime's own ports, never a source (url-policy.ts). */
  reservedPorts?: readonly number[];
}

export interface SourceDownload {
  sizeBytes: number;
  statusCode: number;
  finalUrl: string;
}

/** Tags the errors this module raises itself, so the mapping below cannot confuse them with the network's. */
class DownloadLimitError extends Error {
  constructor(readonly kind: 'too-large' | 'deadline') {
    super(kind);
    this.name = 'DownloadLimitError';
  }
}

export function formatBytes(n: number): string {
  const MB = 1024 * 1024;
  if (n >= MB) return `${Math.round((n / MB) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Accept-Encoding we can undo, unless the customer's headers ask for something else. */
function requestHeaders(custom: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'Proofline/1 (+source fetch)', 'accept-encoding': 'gzip, deflate, br' };
  for (const [name, value] of Object.entries(custom ?? {})) {
    if (typeof value !== 'string') continue;
    // Header names are case-insensitive: the customer's spelling replaces ours.
    for (const own of Object.keys(headers)) if (own.toLowerCase() === name.toLowerCase()) delete headers[own];
    headers[name] = value;
  }
  return headers;
}

export async function downloadSource(url: string, opts: SourceDownloadOptions): Promise<SourceDownload> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DownloadLimitError('deadline')), opts.timeoutMs);
  try {
    let response: Awaited<ReturnType<typeof guardedRequest>>;
    try {
      response = await raceDeadline(
        guardedRequest(url, {
          method: 'GET',
          headers: requestHeaders(opts.headers),
          timeoutMs: opts.timeoutMs,
          maxRedirects: MAX_SOURCE_REDIRECTS,
          mode: opts.mode,
          reservedPorts: opts.reservedPorts,
        }),
        deadline.signal,
      );
    } catch (err) {
      if (err instanceof DownloadLimitError) throw new UnprocessableFileError(`The source URL did not answer within ${seconds(opts.timeoutMs)}.`);
      throw toUnprocessable(err, opts);
    }
    const { statusCode, headers, body, finalUrl } = response;
    if (statusCode < 200 || statusCode > 299) {
      body.destroy();
      throw new UnprocessableFileError(`The source URL answered HTTP ${statusCode}.`);
    }
    const encodings = contentEncodings(headers);
    const declared = Number(headers['content-length']);
    if (encodings.length === 0 && Number.isFinite(declared) && declared > opts.maxBytes) {
      body.destroy();
      throw new UnprocessableFileError(`The source is larger than ${formatBytes(opts.maxBytes)}.`);
    }
    const decoders = encodings.reverse().map(decoderFor);
    const counter = new ByteCap(opts.maxBytes);
    try {
      // The array form takes generator stages at run time; its typings only know streams.
      const run = pipeline as unknown as (stages: unknown[], options: { signal: AbortSignal }) => Promise<void>;
      await run([body, ...decoders, counter, createWriteStream(opts.destPath)], { signal: deadline.signal });
    } catch (err) {
      throw toUnprocessable(deadline.signal.aborted ? deadline.signal.reason : err, opts, encodings);
    }
    return { sizeBytes: counter.bytes, statusCode, finalUrl };
  } finally {
    clearTimeout(timer);
  }
}

function raceDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        // Headers arrived after the deadline: nobody will read this body.
        if (signal.aborted) (value as { body?: Readable }).body?.destroy();
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Content-Encoding codings in the order they were applied; identity dropped. */
function contentEncodings(headers: IncomingHttpHeaders): string[] {
  const raw = headers['content-encoding'];
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const codings = text
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  for (const c of codings) {
    if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(c)) {
      throw new UnprocessableFileError(`The source URL sent the file with an encoding Proofline cannot decode (${c}).`);
    }
  }
  return codings;
}

const decoderErrors = new WeakMap<object, string>();

const tagErrors = <T extends NodeJS.EventEmitter>(stream: T, coding: string): T =>
  stream.on('error', (err: unknown) => {
    if (typeof err === 'object' && err !== null) decoderErrors.set(err, coding);
  });

type PipelineStage = NodeJS.ReadWriteStream | ((source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>);

function decoderFor(coding: string): PipelineStage {
  if (coding === 'br') return tagErrors(zlib.createBrotliDecompress(), coding);
  if (coding === 'deflate') return lenientInflate;
  return tagErrors(zlib.createGunzip(), coding);
}

/**
 * HTTP `deflate` means zlib-wrapped data, but many servers send raw deflate.
 * Browsers accept both; so do we, choosing by the first two bytes (RFC 1950:
 * CM = 8 and the header checksum divisible by 31). Iterating the inflater keeps
 * back-pressure, so a deflate bomb is stopped by the cap, not by memory.
 */
async function* lenientInflate(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const upstream = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await upstream.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  if (head.length === 0) return;
  const zlibWrapped = (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | (head[1] ?? 0)) % 31 === 0;
  const inflater = tagErrors(zlibWrapped ? zlib.createInflate() : zlib.createInflateRaw(), 'deflate');
  const input = Readable.from(
    (async function* () {
      yield head;
      for (let next = await upstream.next(); !next.done; next = await upstream.next()) yield next.value;
    })(),
  );
  input.on('error', (err) => inflater.destroy(err));
  input.pipe(inflater);
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } finally {
    input.destroy();
    inflater.destroy();
  }
}

/** Passes bytes through and fails the pipeline as soon as more than `max` have passed. */
class ByteCap extends Transform {
  bytes = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.max) return done(new DownloadLimitError('too-large'));
    done(null, chunk);
  }
}

const NETWORK_REASONS: Record<string, string> = {
  ENOTFOUND: "The source URL's host name could not be resolved.",
  EAI_AGAIN: "The source URL's host name could not be resolved.",
  ECONNREFUSED: 'The source URL refused the connection.',
  ECONNRESET: 'The connection to the source URL was broken off.',
  EPIPE: 'The connection to the source URL was broken off.',
  ERR_STREAM_PREMATURE_CLOSE: 'The source URL closed the connection before the whole file arrived.',
  ECONNABORTED: 'The source URL closed the connection before the whole file arrived.',
  EHOSTUNREACH: 'The source URL could not be reached.',
  ENETUNREACH: 'The source URL could not be reached.',
  HPE_INVALID_CONSTANT: 'The source URL did not answer with valid HTTP.',
  HPE_INVALID_HEADER_TOKEN: 'The source URL did not answer with valid HTTP.',
};

/** A human reason for a failed download; errors of our own making (disk, bugs) pass through unchanged. */
function toUnprocessable(err: unknown, opts: SourceDownloadOptions, encodings: string[] = []): Error {
  if (err instanceof UnprocessableFileError) return err;
  if (err instanceof DownloadLimitError) {
    return new UnprocessableFileError(
      err.kind === 'too-large'
        ? `The source is larger than ${formatBytes(opts.maxBytes)}.`
        : `The source URL did not deliver the file within ${seconds(opts.timeoutMs)}.`,
    );
  }
  if (err instanceof TooManyRedirectsError) {
    return new UnprocessableFileError(`The source URL redirected more than ${MAX_SOURCE_REDIRECTS} times.`);
  }
  if (err instanceof RequestTimeoutError) {
    return new UnprocessableFileError(
      /stalled/.test(err.message)
        ? `The source URL stopped sending the file for more than ${seconds(opts.timeoutMs)}.`
        : `The source URL did not answer within ${seconds(opts.timeoutMs)}.`,
    );
  }
  if (err instanceof UrlNotAllowedError) {
    return new UnprocessableFileError(`The source URL was refused: ${sentenceTail(err.reason)}`);
  }
  const e = (err ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  const coding = typeof err === 'object' && err !== null ? decoderErrors.get(err) : undefined;
  if (coding || code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1') {
    const which = coding ?? encodings.join(', ');
    return new UnprocessableFileError(`The source URL sent ${which ? `${which}-encoded ` : ''}data that could not be decoded.`);
  }
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || name === 'TimeoutError' || /timed? ?out/i.test(message)) {
    return new UnprocessableFileError(`The source URL did not deliver the file within ${seconds(opts.timeoutMs)}.`);
  }
  if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    return new UnprocessableFileError("The source URL's TLS certificate could not be verified.");
  }
  if (NETWORK_REASONS[code]) return new UnprocessableFileError(NETWORK_REASONS[code]!);
  if (code.startsWith('E') || code.startsWith('HPE_') || name === 'AbortError') {
    // Another socket-level failure: the customer's server or network, not our fault.
    if (code === 'ENOSPC' || code === 'EACCES' || code === 'EMFILE') return err as Error;
    return new UnprocessableFileError(`The source URL could not be fetched (${code || name}).`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** `only https URLs are allowed` → `only https URLs are allowed.` (reasons are fragments or sentences). */
function sentenceTail(reason: unknown): string {
  const text = typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : 'its address is not allowed';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
