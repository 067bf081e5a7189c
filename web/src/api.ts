/**
 * The console speaks only the public API (docs/api.md), on the same origin, with the signed-in
 * key as its Bearer token. Errors arrive in the contract's shape and are shown by their message.
 */
import { currentKey } from './session';
import { ApiFailure, jsonRequest } from './json-request';
import type { Progress } from '../../lambdas/domain/present/progress';

export { ApiFailure };

/** `extraHeaders`: e.g. an Idempotency-Key (docs/api.md §7), so a repeated request makes nothing new. */
export function api<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const key = currentKey();
  return jsonRequest<T>(method, path, { ...extraHeaders, ...(key ? { authorization: `Bearer ${key}` } : {}) }, body);
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

/** How far a job or task has got (docs/api.md §4, `progress`): the presenter's own type. */
export type { Progress } from '../../lambdas/domain/present/progress';

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
