/** A deliberately plain HTTP client: what any integrator's code would send. */
import { target } from './target';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body (sent as is), for malformed-JSON and content-type tests. */
  rawBody?: string | Uint8Array;
  /** Defaults to the target's main key; null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
}

export async function api<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const t = target();
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? t.key : opts.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  // Relative to the base URL, so a stage path (API Gateway's `…/v1/`) is kept.
  const res = await fetch(new URL(path.replace(/^\//, ''), t.baseUrl), { method, headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Polls GET /jobs/{id} until the job is terminal (or the deadline passes). */
export async function waitForJob(id: string, timeoutMs = 60_000, key?: string): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await api('GET', `/jobs/${id}`, { key });
    last = res.body?.job;
    if (last && (last.status === 'done' || last.status === 'error')) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`job ${id} not terminal after ${timeoutMs} ms; last status ${last?.status}`);
}

/** Every error body of the contract (docs/api.md §7). */
export function expectErrorShape(res: ApiResponse, status: number, code: string): void {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status} (wanted ${status})`);
  const b = res.body;
  if (!b || b.error !== true) problems.push('body.error is not true');
  if (b?.code !== code) problems.push(`code ${b?.code} (wanted ${code})`);
  if (typeof b?.message !== 'string' || b.message.length === 0) problems.push('no message');
  if (typeof b?.requestId !== 'string' || b.requestId.length === 0) problems.push('no requestId');
  if (!res.headers.get('x-request-id')) problems.push('no x-request-id header');
  if (problems.length) throw new Error(`error response not as the contract says: ${problems.join('; ')}\n${res.text}`);
}

/** The browser-style form POST of §3 to a POST /uploads answer's `upload`: every field first, the file last in part `file`. */
export async function postForm(upload: { url: string; fields: Record<string, string> }, file: Blob, fileName = 'upload.pdf'): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(upload.fields)) form.append(k, v);
  form.append('file', file, fileName);
  return fetch(upload.url, { method: 'POST', body: form });
}
