/**
 * The console speaks only the public API (docs/api.md), on the same origin, with the signed-in
 * key as its Bearer token. Errors arrive in the contract's shape and are shown by their message.
 */
import { currentKey } from './session';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `extraHeaders`: e.g. an Idempotency-Key (docs/api.md §7), so a repeated request makes nothing new. */
export async function api<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const key = currentKey();
  const headers: Record<string, string> = { ...extraHeaders };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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

// The parts of the contract's shapes the console reads (docs/api.md §4).

export interface Artifact {
  kind: string;
  role: string;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  page?: number;
  downloadUrl?: string;
}

export interface Step {
  id: string;
  type: string;
  status: string;
  outcome: string | null;
  reason?: string | null;
}

export interface AuditEntry {
  at: string;
  event: string;
  message: string;
}

/** How far a job or task has got (docs/api.md §4, `progress`). */
export interface Progress {
  stepsDone: number;
  stepsTotal: number;
  pagesDone: number;
  pagesTotal: number | null;
  percent: number;
}

export interface Task {
  id: string;
  source: string;
  status: string;
  outcome: string | null;
  reason?: string | null;
  fileType: string | null;
  originalArtifact: Artifact | null;
  outputArtifacts?: Artifact[];
  steps?: Step[];
  audit?: AuditEntry[];
  progress?: Progress;
}

export interface Job {
  id: string;
  createdAt: string;
  status: string;
  outcome: string | null;
  canProceed: boolean | null;
  orderId: string | null;
  customerId: string | null;
  channel: string | null;
  tasks: Task[];
  deliverables?: Artifact[];
  progress?: Progress;
}

export interface JobList {
  jobs: Job[];
  nextKey: string | null;
}

export const isTerminal = (status: string): boolean => status === 'done' || status === 'error';
