/**
 * The one way the service makes outbound HTTP requests to URLs its users gave
 * (source downloads, webhooks). Every URL, the first and each redirect target,
 * passes the static URL policy; the address the socket connects to passes the
 * address policy at connect time (guarded-lookup.ts, and in the cloud also
 * request-filtering-agent's agents as a second, independent check), so neither
 * a redirect nor DNS rebinding can reach a private, loopback or metadata address.
 *
 * The timeout bounds the wait for the final response's headers (connect,
 * redirects and all) and, after that, each silence while the body streams.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { NetworkMode } from '../config';
import { guardedLookup, UrlNotAllowedError, type LookupFunction } from './guarded-lookup';
import { checkUrl } from './url-policy';

export { UrlNotAllowedError } from './guarded-lookup';

export class RequestTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestTimeoutError';
  }
}

export class TooManyRedirectsError extends Error {
  constructor(readonly maxRedirects: number) {
    super(`more than ${maxRedirects} redirect${maxRedirects === 1 ? '' : 's'}`);
    this.name = 'TooManyRedirectsError';
  }
}

export interface GuardedRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /**
   * Redirects to follow. With 0, a redirect is not followed but returned as the
   * response (the caller sees its 3xx); above 0, one redirect too many throws
   * TooManyRedirectsError.
   */
  maxRedirects: number;
  mode: NetworkMode;
  /** Ports no request may go to (the local runtime's own; url-policy.ts). */
  reservedPorts?: readonly number[];
  /** Name resolution to guard instead of the system's (tests, custom resolvers). */
  resolve?: LookupFunction;
}

export interface GuardedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
  finalUrl: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin (as browsers do). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'];

// One agent per scheme and mode for the process. No keep-alive: each user URL is
// its own host, and a pooled socket would skip the connect-time address check.
const cloudAgents = { http: new RequestFilteringHttpAgent({ keepAlive: false }), https: new RequestFilteringHttpsAgent({ keepAlive: false }) };
const localAgents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };
const systemGuards: Record<NetworkMode, LookupFunction> = { cloud: guardedLookup('cloud'), local: guardedLookup('local') };

/** request-filtering-agent reports a refused address as a plain Error with this wording. */
const AGENT_REFUSAL_RE = /is not allowed\. Because/;

function asRefusal(err: unknown, url: URL): unknown {
  if (err instanceof UrlNotAllowedError) return err.url ? err : new UrlNotAllowedError(err.reason, url.href);
  if (err instanceof Error && AGENT_REFUSAL_RE.test(err.message)) {
    return new UrlNotAllowedError(`the host ${url.hostname} resolves to an address that is not public`, url.href);
  }
  return err;
}

interface Hop {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

function send(hop: Hop, opts: GuardedRequestOptions, deadline: number, lookup: LookupFunction): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = hop.url.protocol === 'https:';
    const agents = opts.mode === 'cloud' ? cloudAgents : localAgents;
    const headers = { ...hop.headers };
    if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
    const req = (secure ? https : http).request(hop.url, {
      method: hop.method,
      headers,
      agent: secure ? agents.https : agents.http,
      lookup: lookup as never,
    });
    const timer = setTimeout(
      () => req.destroy(new RequestTimeoutError(`no response from ${hop.url.host} within ${opts.timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    req.once('response', (res) => {
      clearTimeout(timer);
      res.setTimeout(opts.timeoutMs, () => res.destroy(new RequestTimeoutError(`the response body stalled for ${opts.timeoutMs} ms`)));
      res.once('end', () => res.setTimeout(0));
      resolve(res);
    });
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(asRefusal(err, hop.url));
    });
    req.end(hop.body);
  });
}

/** The request to make after a redirect, following the fetch standard's rules. */
function redirected(hop: Hop, status: number, next: URL): Hop {
  const headers = { ...hop.headers };
  let { method, body } = hop;
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    for (const name of Object.keys(headers)) if (BODY_HEADERS.includes(name.toLowerCase())) delete headers[name];
  }
  if (next.origin !== hop.url.origin) {
    for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
  }
  return { url: next, method, headers, body };
}

function allowed(raw: string, opts: Pick<GuardedRequestOptions, 'mode' | 'reservedPorts'>): URL {
  const check = checkUrl(raw, opts.mode, opts.reservedPorts);
  if (!check.ok) throw new UrlNotAllowedError(check.reason, raw);
  return check.url;
}

export async function guardedRequest(url: string, opts: GuardedRequestOptions): Promise<GuardedResponse> {
  const lookup = opts.resolve ? guardedLookup(opts.mode, opts.resolve) : systemGuards[opts.mode];
  const deadline = Date.now() + opts.timeoutMs;
  const headers: Record<string, string> = { 'user-agent': 'Proofline', ...(opts.headers ?? {}) };
  let hop: Hop = { url: allowed(url, opts), method: opts.method ?? 'GET', headers, body: opts.body };

  for (let redirects = 0; ; redirects++) {
    const res = await send(hop, opts, deadline, lookup);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECT_STATUSES.has(status) || !location || opts.maxRedirects <= 0) {
      return { statusCode: status, headers: res.headers, body: res, finalUrl: hop.url.href };
    }
    res.resume();
    res.destroy();
    if (redirects >= opts.maxRedirects) throw new TooManyRedirectsError(opts.maxRedirects);
    let target: string;
    try {
      target = new URL(location, hop.url).href;
    } catch {
      throw new UrlNotAllowedError('the redirect Location is not a valid URL', location);
    }
    hop = redirected(hop, status, allowed(target, opts));
  }
}
