/**
 * One JSON request to our own API, for the console (web/src/api.ts, with the signed-in key) and
 * the proof page (web/src/proof/shared-api.ts, with the link's token): whoever calls says which
 * credential header to send. Errors arrive in the contract's shape and are thrown as ApiFailure
 * with the API's own sentence; a network failure or a body that is not JSON gets one of ours.
 */

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function jsonRequest<T>(method: string, path: string, headers: Record<string, string>, body?: unknown, init: RequestInit = {}): Promise<T> {
  const sent: Record<string, string> = { ...headers };
  if (body !== undefined) sent['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { ...init, method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiFailure(0, 'network', 'The service could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const e = (json ?? {}) as { code?: string; message?: string };
    throw new ApiFailure(res.status, e.code ?? 'unknown', e.message ?? `The service answered ${res.status}.`);
  }
  return json as T;
}
