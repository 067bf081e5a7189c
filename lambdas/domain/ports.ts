/**
 * The small interfaces the domain depends on. AWS adapters (lambdas/adapters/aws)
 * implement them over DynamoDB, S3, Step Functions and EventBridge; the local
 * runtime uses the same DynamoDB and S3 adapters over dynalite and s3rver and its
 * own orchestrator and event bus (lambdas/adapters/local). The domain imports
 * only this file, never an adapter.
 */
import type { Readable } from 'node:stream';
import type { RuntimeConfig } from '../platform/config';
import type {
  AccountProfileRecord,
  AccountRecord,
  Approval,
  ApiKeyRecord,
  AuditEntry,
  Channel,
  JobGraph,
  JobRecord,
  Outcome,
  Review,
  Status,
  StepRecord,
  TaskRecord,
  UploadRecord,
  WebhookDelivery,
} from './model';

// ---------------------------------------------------------------- job store

export interface JobListQuery {
  accountId: string;
  limit: number;
  /** Opaque cursor from a previous page (already decoded by the store). */
  cursor?: string;
  status?: Status;
  outcome?: Outcome;
  channel?: Channel;
  orderId?: string;
  customerId?: string;
  /** ISO timestamps, inclusive. */
  createdAfter?: string;
  createdBefore?: string;
}

export interface JobListPage {
  jobs: JobRecord[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

/** Fields a status transition may set along with the status. */
export type JobPatch = Partial<Pick<JobRecord, 'outcome' | 'canProceed' | 'workflowId' | 'finalizedAt' | 'modifiedAt' | 'eventPublishedAt'>>;
export type TaskPatch = Partial<
  Pick<TaskRecord, 'outcome' | 'reason' | 'fileType' | 'mimeType' | 'originalArtifact' | 'currentFile' | 'updatedAt'>
>;
export type StepPatch = Partial<
  Pick<StepRecord, 'outcome' | 'reason' | 'runtimeParams' | 'started' | 'ended' | 'duration' | 'outputs' | 'result' | 'resultKey'>
>;

/** One part's page count for JobStore.recordStepPages. */
export interface StepPagesReport {
  /** The part of the step that counted: `main` for a step run in one invocation, `batch-<n>` for a batch. */
  part: string;
  done: number;
  /** The pages the whole step works through, when this report knows it. */
  total?: number;
}

/**
 * Every status change is a conditional write: it succeeds only when the record's
 * current status is one of `from`, so repeated or concurrent events can never
 * move a record backwards or change a terminal one. `transition*` returns false
 * (and writes nothing) when the condition does not hold or the record is gone.
 */
export interface JobStore {
  /**
   * Writes tasks and steps first and the job record last: until the job record
   * exists nothing is visible, so a failure part-way leaves no half-created job
   * (the caller deletes the stragglers with deleteJob).
   */
  createJob(graph: Omit<JobGraph, 'audit'>): Promise<void>;
  /** The job, or null when it does not exist or belongs to another account. */
  getJob(accountId: string, jobId: string): Promise<JobRecord | null>;
  getGraph(accountId: string, jobId: string): Promise<JobGraph | null>;
  /** For workers, which act on behalf of the job's own account. */
  getGraphById(jobId: string): Promise<JobGraph | null>;
  listJobs(query: JobListQuery): Promise<JobListPage>;
  /** Non-terminal job ids of every account (local runtime recovery after a restart). */
  listUnfinishedJobIds(): Promise<string[]>;
  /** The oldest job not yet terminal (ids are creation-ordered), or null: one small read, for the running-job age. */
  oldestUnfinishedJobId(): Promise<string | null>;
  /**
   * Jobs of every account whose retention ran out at or before `at` (domain/retention.ts), in order
   * of expiry. The store may remember where the next call can start looking, but never past a job
   * it returned: a job the caller fails to delete is returned again.
   */
  listExpiredJobs(at: Date): Promise<{ id: string; accountId: string }[]>;

  transitionJob(jobId: string, from: Status[], to: Status, patch?: JobPatch): Promise<boolean>;
  /** Non-status fields of a job (workflowId after the execution starts). */
  patchJob(jobId: string, patch: JobPatch): Promise<void>;
  transitionTask(jobId: string, taskId: string, from: Status[], to: Status, patch?: TaskPatch): Promise<boolean>;
  patchTask(jobId: string, taskId: string, patch: TaskPatch): Promise<void>;
  transitionStep(jobId: string, stepId: string, from: Status[], to: Status, patch?: StepPatch): Promise<boolean>;
  /**
   * Records how many pages one part of a running step has worked through (StepRecord.pages),
   * and the step's total when given. Only a larger count is written, and only while the step
   * is `running`; false when nothing was written (an older count, a step that moved on).
   */
  recordStepPages(jobId: string, stepId: string, report: StepPagesReport): Promise<boolean>;

  appendAudit(jobId: string, taskId: string, entry: AuditEntry): Promise<void>;
  appendWebhookDelivery(jobId: string, delivery: WebhookDelivery): Promise<void>;
  /**
   * Claims attempt `attempt` of the job's webhook for one run, by a conditional
   * write: true when no run holds a claim on this or a later attempt, or the
   * holder's claim has lapsed (nowMs past its untilMs); false otherwise.
   */
  claimWebhookAttempt(jobId: string, attempt: number, nowMs: number, untilMs: number): Promise<boolean>;
  /** Records a review once; false when the job already has one. Updates canProceed. */
  recordReview(jobId: string, review: Review, canProceed: boolean): Promise<boolean>;
  /** Raises the job's share generation (revoking every share link signed before); false when the job is gone. */
  revokeShares(jobId: string): Promise<boolean>;
  /**
   * Records the customer's decision once, on a terminal job; with `review`, also that review and
   * canProceed, only while the job has none. False (nothing written) when a condition does not hold.
   */
  recordApproval(jobId: string, approval: Approval, review: { review: Review; canProceed: boolean } | null): Promise<boolean>;
  /** Removes the job and everything stored under it in the table. */
  deleteJob(jobId: string): Promise<void>;
}

// ---------------------------------------------------------------- accounts, keys, uploads

export interface KeyStore {
  putKey(key: ApiKeyRecord): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when there is no such key. */
  revokeKey(keyId: string, at: string): Promise<boolean>;
  getAccount(accountId: string): Promise<AccountRecord | null>;
  /** Creates the account with this secret unless it exists; returns the stored account. */
  ensureAccount(account: AccountRecord): Promise<AccountRecord>;
  /** Sets the account's own retention period in days, or with null goes back to the deployment's; false when there is no such account. */
  setAccountRetention(accountId: string, days: number | null): Promise<boolean>;
  /** Replaces the account's webhook signing secret; false when there is no such account. */
  setAccountWebhookSecret(accountId: string, webhookSecret: string): Promise<boolean>;
}

export interface UploadStore {
  putUpload(upload: UploadRecord): Promise<void>;
  /** Null when absent, owned by another account, or past the time its fileRef may be used. */
  getUpload(accountId: string, uploadId: string): Promise<UploadRecord | null>;
  /**
   * Records that a job reads the upload's file (idempotent per job). The reference outlives the
   * upload record: the file stays as long as a job refers to it (domain/use-cases/upload-references.ts).
   */
  addReference(accountId: string, uploadId: string, jobId: string): Promise<void>;
  /** Forgets the job's reference (idempotent); returns how many jobs still refer to the file. */
  removeReference(accountId: string, uploadId: string, jobId: string): Promise<number>;
  /** How many jobs refer to the upload's file. */
  referenceCount(accountId: string, uploadId: string): Promise<number>;
}

/**
 * An account's own preflight profiles (POST /profiles), one item per (account, profile id)
 * holding its current version. Every read is by account: another account's profile is absent.
 */
export interface ProfileStore {
  /** Stores a new profile (version 1); false, writing nothing, when the account has one with this id. */
  createProfile(profile: AccountProfileRecord): Promise<boolean>;
  getProfile(accountId: string, profileId: string): Promise<AccountProfileRecord | null>;
  /** The account's profiles, by id. */
  listProfiles(accountId: string): Promise<AccountProfileRecord[]>;
  /** How many profiles the account has. */
  countProfiles(accountId: string): Promise<number>;
  /**
   * Replaces the profile with `profile`, whose version must be one more than the stored one
   * (a conditional write: of two writers of the same version, one wins); false, writing
   * nothing, when the stored version is another or the profile is gone.
   */
  replaceProfile(profile: AccountProfileRecord): Promise<boolean>;
  /** Removes the profile; false when the account has none with this id. */
  deleteProfile(accountId: string, profileId: string): Promise<boolean>;
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  | { state: 'in_progress' };

export interface IdempotencyStore {
  /** Claims the key for this request hash, or reports what the key already holds. */
  claim(accountId: string, key: string, requestHash: string, ttlSeconds: number): Promise<IdempotencyClaim>;
  complete(accountId: string, key: string, response: StoredResponse): Promise<void>;
  /** Frees the key after a failure the client may retry (5xx). */
  release(accountId: string, key: string): Promise<void>;
}

// ---------------------------------------------------------------- blobs

export interface BlobHead {
  sizeBytes: number;
  contentType: string | null;
  /** Changes whenever the object is written again (S3's ETag). */
  etag: string | null;
}

export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface BlobStore {
  readonly bucket: string;
  putBytes(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Streams a local file to storage without reading it into memory. */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Streams an object to a local file; returns its size. */
  downloadToFile(key: string, path: string): Promise<number>;
  getStream(key: string): Promise<Readable>;
  getBytes(key: string): Promise<Uint8Array>;
  /** Bytes [start, end] inclusive (fewer when the object is shorter). */
  readRange(key: string, start: number, end: number): Promise<Uint8Array>;
  head(key: string): Promise<BlobHead | null>;
  /** Whether the bucket's lifecycle rule may expire an upload's object (its UPLOAD_OBJECT_TAG on or off). */
  setUploadExpiry(key: string, expiring: boolean): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes every object under the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  presignGet(key: string, expiresInSeconds: number, downloadFileName?: string): Promise<string>;
  /** A POST policy storage itself enforces: exact key, content type, 1..maxBytes. */
  presignPost(key: string, opts: { maxBytes: number; contentType: string; expiresInSeconds: number }): Promise<PresignedPost>;
}

// ---------------------------------------------------------------- orchestration and events

/** The execution input of the job pipeline (step-definitions/job-pipeline.ts). */
export interface PipelineInput {
  jobId: string;
  accountId: string;
  tasks: { taskId: string; steps: { stepId: string; type: string; index: number }[] }[];
}

export interface Orchestrator {
  /** Starts the job's execution in the Express machine; returns the workflow id. */
  startJob(input: PipelineInput): Promise<string>;
  /**
   * Continues a job in the Standard machine once its Express execution ended
   * without finishing it (lambdas/steps/continue-job.ts); idempotent per job.
   */
  continueJob(input: PipelineInput): Promise<string>;
  /** Stops a running execution; a finished or unknown one is not an error, nor one that cannot be stopped (Express). */
  stop(workflowId: string): Promise<void>;
}

export interface WebhookRetryInput {
  jobId: string;
  accountId: string;
  /** The attempt to make after the delay (2..8). */
  attempt: number;
  delaySeconds: number;
}

export interface WebhookScheduler {
  scheduleRetry(input: WebhookRetryInput): Promise<void>;
}

/** detail of the job-terminal event (step-definitions/events.ts). */
export interface JobTerminalEvent {
  jobId: string;
  accountId: string;
  status: Status;
  outcome: Outcome | null;
  hasWebhook: boolean;
}

/** detail of the job-decision event (step-definitions/events.ts): the customer decided on a shared proof. */
export interface JobDecisionEvent {
  jobId: string;
  accountId: string;
  decision: Approval['decision'];
  hasWebhook: boolean;
}

export interface EventPublisher {
  publishJobTerminal(event: JobTerminalEvent): Promise<void>;
  publishJobDecision(event: JobDecisionEvent): Promise<void>;
}

/** The key share links are signed with (domain/share/share-token.ts); the same for every function of a deployment. */
export interface ShareKeySource {
  signingKey(): Promise<Uint8Array>;
}

// ---------------------------------------------------------------- time and ids

export interface Clock {
  now(): Date;
}

export interface IdSource {
  /** `${prefix}_${lower-case ULID}`, sortable by creation time. */
  next(prefix: 'job' | 'task' | 'upload' | 'step' | 'key' | 'evt'): string;
}

// ---------------------------------------------------------------- all of them

/**
 * Everything a handler or worker works with: the configuration and one
 * implementation of each port. platform/services.ts chooses the
 * implementations (the composition root); the AWS and local adapters build them.
 */
export interface Services {
  config: RuntimeConfig;
  jobs: JobStore;
  keys: KeyStore;
  uploads: UploadStore;
  profiles: ProfileStore;
  idempotency: IdempotencyStore;
  blobs: BlobStore;
  orchestrator: Orchestrator;
  webhookScheduler: WebhookScheduler;
  events: EventPublisher;
  shareKey: ShareKeySource;
  clock: Clock;
  ids: IdSource;
}
