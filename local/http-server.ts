/**
 * The local front door: what API Gateway does in front of the route Lambdas,
 * on 127.0.0.1. Per request it assigns a request id (sent back as x-request-id
 * on every response), routes with the same ROUTES table CDK deploys (unknown
 * path → 404 route_not_found, known path with another method → 405 with Allow),
 * refuses bodies over the limit (413) without buffering past it, runs the token
 * authoriser on `auth: true` routes with API Gateway's caching, throttles per
 * key (429 with Retry-After), then calls the route's handler module with a REST
 * proxy event and writes back its result. Every error it produces itself has
 * the contract's error body, like the cloud's Gateway Responses. Every request
 * leaves one access log line (logAccessWhenDone), like API Gateway's access log.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ERROR_CODES, errorBody, type ErrorCode } from '../lambdas/domain/errors';
import { matchRoute, type RouteSpec } from '../lambdas/api/routes';
import type { GatewayAuthorizer } from './gateway-authorizer';
import type { Throttle } from './throttle';
import { buildProxyEvent, lambdaContext, methodArn, type GatewayRequest } from './proxy-event';
import { GATEWAY_MESSAGES } from '../lambdas/api/gateway-messages';
import { REQUEST_ID_HEADERS, requestIdHeaders } from '../lambdas/api/middleware/request-id';
import { holdIdleConnections } from './keep-alive';
import { inInvocationScope } from './invocation-scope';
import { consoleCacheControl, type ConsoleFile, type ConsoleFiles } from '../web/build-console';
import { timedInvocation, type Meter } from './metering/meter';
import { componentLog, logger, type ComponentLog } from '../lambdas/observability/logger';

export type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface HttpServerOptions {
  /** 0 = ephemeral. */
  port: number;
  host?: string;
  maxBodyBytes: number;
  authorizer: GatewayAuthorizer;
  throttle: Throttle;
  /** Loads lambdas/api/<name>.ts by default; tests substitute. */
  loadHandler?: (name: string) => Promise<RouteHandler>;
  /** API Gateway gives up on an integration after 29 s. */
  integrationTimeoutMs?: number;
  /**
   * A Lambda cold start: the first request to each route function waits this
   * long before its handler runs (default 0). It counts against the
   * integration timeout, as in the cloud, so a slow start can be provoked
   * locally (the sync boundary test, docs/api.md §11 rule 9).
   */
  coldStartMs?: number;
  log?: ComponentLog;
  /** The web console's files (web/build-console.ts), served at `/` and `/assets/…` beside the API. */
  console?: { files: ConsoleFiles; headers: Record<string, string> };
  /** Counts the API's requests (not the console's files: CloudFront and S3 serve those) and its handlers' invocations, for the cost model. */
  metering?: Pick<Meter, 'apiRequest' | 'lambdaInvoked'>;
}

export interface HttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** How long a refused request may go on sending its body before the connection is closed. */
const DRAIN_GRACE_MS = 5_000;
/** How long close() lets requests in progress finish. */
const CLOSE_GRACE_MS = 2_000;

/** The cloud gateway's words for the answers it gives itself (see lib/constructs/gateway-responses.ts). */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  unauthorized: GATEWAY_MESSAGES.unauthorized,
  payload_too_large: GATEWAY_MESSAGES.payloadTooLarge,
  internal_error: GATEWAY_MESSAGES.keyCheckFailed,
  service_unavailable: GATEWAY_MESSAGES.keyCheckFailed,
};

export const defaultLoadHandler = async (name: string): Promise<RouteHandler> => {
  const mod = (await import(new URL(`../lambdas/api/${name}.ts`, import.meta.url).href)) as { handler?: unknown };
  if (typeof mod.handler !== 'function') throw new Error(`lambdas/api/${name}.ts does not export a handler`);
  return mod.handler as RouteHandler;
};

export async function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const log = opts.log ?? componentLog('gateway');
  const load = opts.loadHandler ?? defaultLoadHandler;
  const integrationTimeoutMs = opts.integrationTimeoutMs ?? 29_000;
  const coldStartMs = opts.coldStartMs ?? 0;
  const handlers = new Map<string, Promise<RouteHandler>>();

  /** Imported once per module, like a warm Lambda; a failed import is retried next time. */
  function handlerFor(name: string): Promise<RouteHandler> {
    let h = handlers.get(name);
    if (!h) {
      h = coldStartMs > 0 ? load(name).then((fn) => new Promise((resolve) => setTimeout(() => resolve(fn), coldStartMs))) : load(name);
      handlers.set(name, h);
      h.catch(() => handlers.delete(name));
    }
    return h;
  }

  const server = http.createServer((req, res) => {
    const requestId = randomUUID();
    for (const [name, value] of Object.entries(requestIdHeaders(requestId))) res.setHeader(name, value);
    const caller: AccessCaller = {};
    logAccessWhenDone(req, res, requestId, caller);
    serve(req, res, requestId, caller).catch((err: unknown) => {
      log('request failed', err, { requestId });
      if (!res.headersSent) sendError(res, requestId, 'internal_error', ERROR_CODES.internal_error.title);
      else res.destroy();
    });
  });

  holdIdleConnections(server);

  // What Node's parser refuses before a request exists (headers over its 16 KB, malformed HTTP)
  // is answered in the contract's error shape too, not with Node's bare status line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(err.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'validation_error', err.code));
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, caller: AccessCaller): Promise<void> {
    const receivedAt = new Date();
    const method = req.method ?? 'GET';
    const [path = '/', rawQuery = ''] = (req.url ?? '/').split('?', 2);

    if (opts.console && (method === 'GET' || method === 'HEAD')) {
      const file = opts.console.files.get(path);
      if (file) return serveConsoleFile(req, res, file, opts.console.headers);
    }

    opts.metering?.apiRequest();
    let match: ReturnType<typeof matchRoute>;
    try {
      match = matchRoute(method, path);
    } catch {
      // A malformed %-escape in a path parameter.
      return refuse(req, res, requestId, 'route_not_found');
    }
    if (!match.route) {
      if (match.allowed.length === 0) return refuse(req, res, requestId, 'route_not_found');
      return refuse(req, res, requestId, 'method_not_allowed', undefined, { Allow: [...new Set(match.allowed)].sort().join(', ') });
    }
    const route = match.route;

    const body = await readBody(req, opts.maxBodyBytes);
    if (body === null) return refuse(req, res, requestId, 'payload_too_large');

    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    let authorizer: { principalId: string; context: Record<string, string> } | null = null;
    if (route.auth) {
      const outcome = await opts.authorizer.authorize(req.headers.authorization, methodArn(method, path));
      switch (outcome.kind) {
        case 'allowed':
          authorizer = { principalId: outcome.principalId, context: outcome.context };
          caller.accountId = outcome.context.accountId;
          break;
        case 'unauthorized':
          return sendError(res, requestId, 'unauthorized', undefined, { 'WWW-Authenticate': 'Bearer' });
        case 'forbidden':
          return sendError(res, requestId, 'forbidden');
        case 'failure':
          log('authoriser failed', outcome.error, { requestId });
          return sendError(res, requestId, 'internal_error');
        case 'misconfigured':
          log('authoriser answered without a policy', outcome.error, { requestId });
          return sendError(res, requestId, 'service_unavailable');
      }
    }

    const client = authorizer ? `key:${authorizer.context.keyId ?? authorizer.principalId}` : `ip:${sourceIp}`;
    const decision = opts.throttle.take(client);
    if (!decision.allowed) return sendError(res, requestId, 'rate_limited', undefined, { 'Retry-After': String(decision.retryAfterSeconds) });

    const request: GatewayRequest = { method, path, rawQuery, rawHeaders: req.rawHeaders, body, sourceIp, requestId, receivedAt };
    const event = buildProxyEvent(request, { path: route.path, params: match.params }, authorizer);
    const result = await invoke(route, event, requestId);
    if (result.kind === 'timeout') return sendError(res, requestId, 'gateway_timeout');
    if (result.kind === 'failed') {
      log(`handler ${route.handler} failed`, result.error, { requestId });
      return sendError(res, requestId, 'bad_gateway');
    }
    writeResult(res, result.value, requestId);
  }

  /** Runs the handler under its Lambda timeout and the gateway's integration timeout. */
  async function invoke(
    route: RouteSpec,
    event: APIGatewayProxyEvent,
    requestId: string,
  ): Promise<{ kind: 'ok'; value: APIGatewayProxyResult } | { kind: 'failed'; error: unknown } | { kind: 'timeout' }> {
    const lambdaMs = route.timeoutSeconds * 1000;
    const limitMs = Math.min(lambdaMs, integrationTimeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => { timer = setTimeout(() => resolve('expired'), limitMs); });
    try {
      // In a scope of its own: requests run at once in this thread, each with its own log keys.
      const context = lambdaContext(`proofline-local-${route.handler}`, requestId, lambdaMs, route.memoryMb);
      const run = handlerFor(route.handler).then((h) =>
        timedInvocation(opts.metering?.lambdaInvoked, { functionName: route.handler, memoryMb: route.memoryMb }, () => inInvocationScope(requestId, () => h(event, context))),
      );
      run.catch(() => {});
      const value = await Promise.race([run, expired]);
      if (value === 'expired') {
        // The Lambda timing out is an integration failure; the gateway timing out first is a 504.
        return lambdaMs <= integrationTimeoutMs ? { kind: 'failed', error: new Error(`Task timed out after ${route.timeoutSeconds} seconds`) } : { kind: 'timeout' };
      }
      if (!isProxyResult(value)) return { kind: 'failed', error: new Error('Malformed Lambda proxy response') };
      return { kind: 'ok', value };
    } catch (error) {
      return { kind: 'failed', error };
    } finally {
      clearTimeout(timer);
    }
  }

  function refuse(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, code: ErrorCode, message?: string, headers?: Record<string, string>): void {
    sendError(res, requestId, code, message, headers);
    drain(req);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    /** Stops accepting; requests in progress get a short grace, then their connections close. */
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Who a request came from, once the authoriser has said (never the key). */
interface AccessCaller {
  accountId?: string;
}

/**
 * The access log: one line per request, when its response has gone (or its
 * connection closed before), a 401 included: method, path (never the query
 * string, which may hold a presigned URL's signature), status, duration, the
 * request id every response carries, and the account once the key was
 * accepted. Never a header, so never the key.
 */
function logAccessWhenDone(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, caller: AccessCaller): void {
  const started = performance.now();
  res.once('close', () => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const status = res.statusCode;
    logger.info({
      message: `${method} ${path} ${status}`,
      component: 'access',
      method,
      path,
      status,
      ms: Math.round(performance.now() - started),
      requestId,
      accountId: caller.accountId,
      ...(res.writableFinished ? {} : { aborted: true }),
    });
  });
}

/** The whole body, or null as soon as it is known to exceed the limit (nothing more is kept). */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** Reads and discards what is left of a refused request; cuts off one that goes on too long. */
function drain(req: http.IncomingMessage): void {
  if (req.readableEnded) return;
  req.resume();
  const cutOff = setTimeout(() => req.socket.destroy(), DRAIN_GRACE_MS);
  req.once('end', () => clearTimeout(cutOff));
  req.once('close', () => clearTimeout(cutOff));
}

/** A console file: no key needed (it holds no data); hashed assets are cached for good, the page never. */
function serveConsoleFile(req: http.IncomingMessage, res: http.ServerResponse, file: ConsoleFile, headers: Record<string, string>): void {
  res.writeHead(200, {
    ...headers,
    'content-type': file.contentType,
    'content-length': file.body.length,
    'cache-control': consoleCacheControl(file),
  });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

function sendError(res: http.ServerResponse, requestId: string, code: ErrorCode, message?: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(code, message ?? MESSAGES[code] ?? ERROR_CODES[code].title, requestId));
  res.writeHead(ERROR_CODES[code].status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...requestIdHeaders(requestId),
  });
  res.end(body);
}

/** A whole HTTP/1.1 error response for a connection Node's parser gave up on. */
export function rawErrorResponse(code: 'headers_too_large' | 'validation_error', parserCode?: string): string {
  const requestId = randomUUID();
  const message = code === 'headers_too_large' ? undefined : `The request is not valid HTTP/1.1${parserCode ? ` (${parserCode})` : ''}.`;
  const body = JSON.stringify(errorBody(code, message ?? ERROR_CODES[code].title, requestId));
  const status = ERROR_CODES[code].status;
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...requestIdHeaders(requestId) };
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`;
}

function isProxyResult(v: unknown): v is APIGatewayProxyResult {
  const r = v as APIGatewayProxyResult;
  return typeof r === 'object' && r !== null && Number.isInteger(r.statusCode) && (r.body === undefined || r.body === null || typeof r.body === 'string');
}

function writeResult(res: http.ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  const headers = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, value: unknown) => {
    const key = name.toLowerCase();
    const entry = headers.get(key) ?? { name, values: [] };
    entry.values.push(String(value));
    headers.set(key, entry);
  };
  // As API Gateway merges them: a name in multiValueHeaders takes its values from there only.
  const multi = result.multiValueHeaders ?? {};
  const inMulti = new Set(Object.keys(multi).map((k) => k.toLowerCase()));
  for (const [name, value] of Object.entries(result.headers ?? {})) if (!inMulti.has(name.toLowerCase())) add(name, value);
  for (const [name, values] of Object.entries(multi)) for (const v of values ?? []) add(name, v);
  for (const name of REQUEST_ID_HEADERS) if (!headers.has(name)) add(name, requestId);
  const body = result.body ? (result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8')) : Buffer.alloc(0);
  res.statusCode = result.statusCode;
  for (const { name, values } of headers.values()) res.setHeader(name, values.length === 1 ? values[0]! : values);
  res.setHeader('content-length', body.length);
  res.end(body);
}
