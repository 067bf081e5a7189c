/**
 * The records the service keeps about jobs, tasks and steps, and the small value
 * types they are made of. These are storage-neutral domain records: the job store
 * persists them as they are, and the presenter (api/present-job) turns them into
 * the contract's JSON (docs/api.md §4), adding presigned URLs and derived fields.
 *
 * Derived data is not stored twice: a task's outputArtifacts are its steps'
 * outputs, a job's summary/results/deliverables are computed from its tasks and
 * steps when read. Only facts are stored.
 */

import type { Outcome, Status, FileType, Channel } from './vocabulary';
import type { StepType } from '../../step-definitions/catalogue';
import type { ProfileDefinition } from '../engine/preflight/account-profile';
import type { PreflightProfileInfo } from '../engine/preflight/profiles';

export { FILE_TYPES, STATUSES, OUTCOMES, CHANNELS, type FileType, type Status, type Outcome, type Channel } from './vocabulary';
// The step types are the catalogue's: one entry there makes a step type.
export { STEP_TYPES, type StepType } from '../../step-definitions/catalogue';

export const TERMINAL_STATUSES: readonly Status[] = ['done', 'skipped', 'error'];
export const isTerminal = (s: Status): boolean => TERMINAL_STATUSES.includes(s);

/** The verdicts a check step (preflight, repreflight, validate) can reach. */
export type CheckVerdict = 'pass' | 'warn' | 'fail';


export const ON_FAIL_POLICIES = ['reject', 'accept_with_warnings', 'manual_review'] as const;
export type OnFail = (typeof ON_FAIL_POLICIES)[number];

export type ArtifactKind = 'file' | 'report' | 'image';
export type ArtifactRole =
  | 'source'
  | 'fixed'
  | 'optimized'
  | 'preflight-report'
  | 'validation-report'
  | 'preview'
  | 'proof'
  | 'thumbnail';

/**
 * The roles of a step output that is the task's file from then on: later steps
 * work on it and it is the task's deliverable (autofix's fixed file,
 * optimize's optimized file).
 */
export const TASK_FILE_ROLES: readonly ArtifactRole[] = ['fixed', 'optimized'];
export const replacesTaskFile = (a: Pick<StoredArtifact, 'role'>): boolean => TASK_FILE_ROLES.includes(a.role);

/** A stored file. The API adds `downloadUrl` and `expiresIn` when it presents one. */
export interface StoredArtifact {
  kind: ArtifactKind;
  role: ArtifactRole;
  bucket: string;
  key: string;
  mimeType: string;
  sizeBytes: number;
  fileName: string;
  page?: number;
  /** Pixel size, images only. */
  width?: number;
  height?: number;
  /**
   * A shared upload's ETag when the task took it as its source: steps check that the file they
   * read is still that one (never shown to clients: present/artifacts.ts lists what is).
   */
  etag?: string;
}

/** Where a task's file comes from. Execution input never carries file bytes. */
export type SourceLocator =
  | { kind: 'url'; url: string; headers?: Record<string, string> }
  /** Base64 `file`: the API already wrote the bytes to this key. */
  | { kind: 'inline'; key: string; sizeBytes: number }
  /**
   * `fileRef`: the upload's object itself, shared by every job made from it (never copied), and
   * its ETag when the job was created: a file posted again under the same upload is refused.
   */
  | { kind: 'upload'; uploadId: string; key: string; etag?: string };

/** §6 order context. */
export interface OrderContext {
  artworkSize?: { width_mm: number; height_mm: number };
  pageCount?: { min?: number; max?: number };
  fileCount?: { min?: number; max?: number };
  bleed?: { required_mm: number };
  safety?: { min_mm: number };
}

export interface WebhookTarget {
  url: string;
  headers?: Record<string, string>;
}

/** The webhook attempt a run is making now (webhook-attempt.ts): no other run makes it until `untilMs`. */
export interface WebhookClaim {
  attempt: number;
  /** Epoch ms when the claim lapses, should its run die before recording the delivery. */
  untilMs: number;
}

export interface WebhookDelivery {
  attempt: number;
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Review {
  decision: 'approve' | 'reject';
  note: string | null;
  at: string;
  keyId: string;
}

/**
 * The shop's customer's answer on the shared proof page (POST /share/decision,
 * docs/api.md §3, Share links). Recorded once per job: it is what the shop acts on (and
 * its webhook), so it is not replaced; a changed mind is a new proof.
 */
export interface Approval {
  decision: 'approved' | 'changes_requested';
  note: string | null;
  at: string;
}

/** Which endpoint created the job; kept for the audit trail and for OpenAPI examples. */
export type JobEndpoint = 'jobs' | 'preflight' | 'fix' | 'validate' | 'previews' | 'optimize';

export interface JobRecord {
  id: string;
  accountId: string;
  /** The key that created the job. */
  keyId: string;
  endpoint: JobEndpoint;
  createdAt: string;
  modifiedAt: string;
  status: Status;
  outcome: Outcome | null;
  /** Set when the job turns terminal (and again when a review decides). */
  canProceed: boolean | null;
  ruleId: string | null;
  workflowId: string | null;
  channel: Channel;
  metaData: Record<string, unknown> | null;
  orderId: string | null;
  customerId: string | null;
  customerEmail: string | null;
  policy: { onFail: OnFail };
  context: OrderContext | null;
  webhook: (WebhookTarget & { deliveries: WebhookDelivery[]; claim?: WebhookClaim }) | null;
  review: Review | null;
  /** The customer's decision on the shared proof page; absent until one is made. */
  approval?: Approval | null;
  /**
   * Internal (never presented): the generation share links are signed with.
   * DELETE /jobs/{id}/share raises it, so every link signed before stops working.
   */
  shareGeneration?: number;
  taskIds: string[];
  /** When the job became terminal (summary.finalized). */
  finalizedAt: string | null;
  /**
   * When the job-terminal event was published. Internal (never presented): the
   * finaliser publishes after winning the terminal transition and sets this; a
   * terminal job without it had its publish fail, and a retried finalise sends it.
   */
  eventPublishedAt?: string | null;
  /**
   * When retention deletes the job, its records and its files (domain/retention.ts), fixed at
   * creation; absent on jobs created before retention existed, which never expire.
   */
  expiresAt?: string | null;
}

export interface TaskRecord {
  id: string;
  jobId: string;
  accountId: string;
  createdAt: string;
  updatedAt: string;
  status: Status;
  outcome: Outcome | null;
  /** Why the task is in `error`. */
  reason: string | null;
  fileType: FileType | null;
  mimeType: string | null;
  /** The contract's `source`: the URL, or the file name. */
  source: string;
  locator: SourceLocator;
  fileRef: string | null;
  clientRef: string | null;
  name: string | null;
  originalArtifact: StoredArtifact | null;
  /** The file as the latest step left it (the source, or autofix's output). */
  currentFile: StoredArtifact | null;
  stepIds: string[];
}

export interface StepRecord {
  id: string;
  jobId: string;
  taskId: string;
  /** Position within the task, 0-based. */
  index: number;
  type: StepType;
  status: Status;
  outcome: Outcome | null;
  reason: string | null;
  params: Record<string, unknown>;
  /** What was actually applied after defaults and context. */
  runtimeParams: Record<string, unknown> | null;
  started: string | null;
  ended: string | null;
  duration: number | null;
  outputs: StoredArtifact[];
  /**
   * The step type's result entry (preflight report, validation profiles,
   * autofix applied/skipped, preview pages). Kept inline when small; a large one
   * is written to the blob store and `resultKey` points at it.
   */
  result: unknown | null;
  resultKey: string | null;
  /** Pages worked through while the step runs (absent until a worker reports any; present/progress.ts reads it). */
  pages?: StepPages;
  /**
   * The account profile `params.profileId` names, resolved when the job was submitted (with its
   * version): the step runs with this, so editing or deleting the profile later never changes the
   * job. Absent for a built-in profile. Internal: the job shows `runtimeParams` instead.
   */
  profile?: PreflightProfileInfo;
}

/**
 * A long step's page count as it runs: previews' pages rendered, preflight's
 * pages analysed. The step may run in parts at once (previews' batches, each
 * its own invocation), so each part keeps its own count under its name and
 * the step's count is their sum; a part's count only ever grows, so a retried
 * part never lowers it. `total` is the pages the step will work through, once
 * known.
 */
export interface StepPages {
  total: number | null;
  done: Record<string, number>;
}

export interface AuditEntry {
  at: string;
  event: AuditEvent;
  stepId?: string;
  message: string;
}

export type AuditEvent =
  | 'source.received'
  | 'source.fetched'
  | 'source.failed'
  | 'type.detected'
  | 'step.started'
  | 'step.finished'
  | 'step.skipped'
  | 'step.failed'
  | 'step.retried'
  | 'task.failed'
  | 'task.finished';

/** Everything the store holds about one job. */
export interface JobGraph {
  job: JobRecord;
  tasks: TaskRecord[];
  /** All steps of all tasks, in task order then step index. */
  steps: StepRecord[];
  /** Keyed by task id, oldest first. */
  audit: Record<string, AuditEntry[]>;
}

export interface UploadRecord {
  id: string;
  accountId: string;
  key: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: string;
  /** When the presigned POST stops working. */
  expiresAt: string;
}

export type KeyRole = 'standard' | 'admin';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  role: KeyRole;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  /** The first characters of the secret (`sk_live_AbCd`), for people to recognise a key. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface AccountRecord {
  id: string;
  webhookSecret: string;
  createdAt: string;
  /** The account's own retention period in days (keys tool); absent: the deployment's (domain/retention.ts). */
  retentionDays?: number | null;
}

/** What the API needs to know about the caller; produced by the authoriser. */
/**
 * An account's own preflight profile (POST /profiles), as stored: its definition and the
 * version the last write made (1 at creation, one more at each PUT).
 */
export interface AccountProfileRecord extends ProfileDefinition {
  accountId: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** The key that made this version. */
  updatedByKeyId: string;
}

export interface Caller {
  accountId: string;
  keyId: string;
  role: KeyRole;
}
