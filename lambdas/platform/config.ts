/**
 * Runtime configuration from the environment, read in one place. CDK sets these
 * variables on each function; the local runtime sets them for its stand-ins.
 * Every knob a test compresses (sync wait, webhook schedule, auth cache) is here.
 */
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../step-definitions/events';
import { WORKERS } from '../../step-definitions/workers';
import { DEFAULT_RETENTION_DAYS } from '../domain/retention';

export type NetworkMode = 'cloud' | 'local';

export interface RuntimeConfig {
  region: string;
  tableName: string;
  bucketName: string;
  /** The job pipeline's Express machine, every job's first execution. */
  stateMachineArn: string;
  /** The same pipeline as a Standard machine, for jobs that outlive the Express limit. */
  standardStateMachineArn: string;
  webhookStateMachineArn: string;
  eventBusName: string;
  /** Service endpoints for stand-ins (dynalite, s3rver, LocalStack); unset in AWS. */
  endpoints: { dynamodb?: string; s3?: string; sfn?: string; events?: string };
  /** Path-style S3 URLs (s3rver, LocalStack). */
  s3ForcePathStyle: boolean;
  /**
   * `cloud`: source URLs and webhooks must be https and must not reach private,
   * loopback, link-local or metadata addresses. `local`: http is allowed, to
   * loopback addresses only.
   */
  networkMode: NetworkMode;
  /**
   * Local runtime only: its own ports (API, storage, the stand-ins), which no
   * source URL or webhook may name (LOCAL_RESERVED_PORTS, set by the runtime).
   */
  reservedPorts: number[];
  /** How long sync mode waits for a terminal job (contract: 27 s). */
  syncWaitMs: number;
  /** Delays in seconds before retries 2..8 of a webhook (contract: 5 s … 10 h). */
  webhookRetryScheduleSeconds: number[];
  /** A delivery not answered 2xx within this is a failed attempt (contract: 15 s). */
  webhookTimeoutMs: number;
  /** Cap on a source file, counted after decompression (500 MiB). */
  maxSourceBytes: number;
  /** Timeout of a source URL download. */
  sourceFetchTimeoutMs: number;
  /** Largest JSON request body; bigger is 413 payload_too_large (Lambda's limit is 6 MB). */
  maxBodyBytes: number;
  /** How long a key's authorisation is cached; revocation takes effect within this. */
  authCacheTtlSeconds: number;
  /** Lifetime of presigned download URLs (contract: 3600). */
  downloadUrlExpiresSeconds: number;
  /** Lifetime of a presigned upload POST. */
  uploadExpiresSeconds: number;
  /**
   * The key share links are signed with (SHARE_SIGNING_KEY), given directly: the local runtime and
   * tests. In the cloud it is unset and the key is read from Secrets Manager (shareSigningSecretArn).
   */
  shareSigningKey: string | undefined;
  /** The Secrets Manager secret holding the share-link key (SHARE_SIGNING_SECRET_ARN; set by CDK on the functions that sign or check links). */
  shareSigningSecretArn: string | undefined;
  /**
   * The origin share links point at (PUBLIC_ORIGIN, such as `https://proofs.example.com`): where the
   * console and its /proof page are served. Unset: the origin the request to POST /jobs/{id}/share came to.
   */
  publicOrigin: string | undefined;
  /** Local runtime only: a key registered verbatim for account `local`. */
  devApiKey: string | undefined;
  /** Wall-clock budget of preflighting one file; past it the task ends in `error` with a reason. */
  preflightTimeoutSeconds: number;
  /** Wall-clock budget of validating one file; past it the task ends in `error` with a reason (never a partial verdict). */
  validateTimeoutSeconds: number;
  /** Wall-clock budget of optimizing one file; past it the task ends in `error` with a reason (no output is kept). */
  optimizeTimeoutSeconds: number;
  /** JavaScript heap of an engine's thread (lambdas/engine/guard); default 60% of the function's memory. */
  engineMaxHeapMb: number;
  /** Largest decoded size of one PDF stream: a bigger one (a decompression bomb) counts as unreadable. */
  engineMaxStreamMb: number;
  /** Largest total decoded from all streams of one PDF. */
  engineMaxDecodedMb: number;
  /**
   * A previews step with more pages than this is rendered in batches of this
   * many pages, each by its own invocation, in parallel (a Map in the job pipeline).
   */
  previewBatchPages: number;
  /**
   * Days after its creation that a job, its records and its files are deleted (RETENTION_DAYS,
   * the stack's `retentionDays`; default 30), unless its account has its own (domain/retention.ts).
   * A fraction is allowed, so tests can use seconds.
   */
  retentionDays: number;
}

const MiB = 1024 * 1024;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n <= 0) throw new Error(`${name} must be a positive number, got "${env[name]}"`);
  return n;
}

/**
 * The rest of the function's memory is for the calling thread, the file's bytes
 * and decoded streams (buffers live outside the heap) and native libraries.
 * Lambda states the function's memory in AWS_LAMBDA_FUNCTION_MEMORY_SIZE;
 * elsewhere the engine functions' size from step-definitions/workers.ts applies.
 */
export function defaultEngineHeapMb(env: NodeJS.ProcessEnv): number {
  const functionMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE) || WORKERS.preflight.memoryMb;
  return Math.max(256, Math.floor(functionMb * 0.6));
}

export function parseSchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_WEBHOOK_RETRY_SCHEDULE];
  const parts = raw.split(',').map((s) => Number(s.trim()));
  if (parts.length === 0 || parts.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, got "${raw}"`);
  }
  return parts;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  return {
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    tableName: env.TABLE_NAME ?? 'proofline',
    bucketName: env.BUCKET_NAME ?? 'proofline-files',
    stateMachineArn: env.STATE_MACHINE_ARN ?? '',
    standardStateMachineArn: env.STANDARD_STATE_MACHINE_ARN ?? '',
    webhookStateMachineArn: env.WEBHOOK_STATE_MACHINE_ARN ?? '',
    eventBusName: env.EVENT_BUS_NAME ?? 'default',
    endpoints: {
      dynamodb: env.DYNAMODB_ENDPOINT || undefined,
      s3: env.S3_ENDPOINT || undefined,
      sfn: env.SFN_ENDPOINT || undefined,
      events: env.EVENTS_ENDPOINT || undefined,
    },
    s3ForcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || Boolean(env.S3_ENDPOINT),
    networkMode: env.NETWORK_MODE === 'local' ? 'local' : 'cloud',
    reservedPorts: (env.LOCAL_RESERVED_PORTS ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0),
    syncWaitMs: int(env, 'SYNC_WAIT_MS', 27_000),
    webhookRetryScheduleSeconds: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000),
    maxSourceBytes: int(env, 'MAX_SOURCE_BYTES', 500 * MiB),
    sourceFetchTimeoutMs: int(env, 'SOURCE_FETCH_TIMEOUT_MS', 120_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 6 * 1000 * 1000),
    authCacheTtlSeconds: int(env, 'AUTH_CACHE_TTL_SECONDS', 30),
    downloadUrlExpiresSeconds: 3600,
    uploadExpiresSeconds: int(env, 'UPLOAD_EXPIRES_SECONDS', 3600),
    devApiKey: env.DEV_API_KEY || undefined,
    shareSigningKey: env.SHARE_SIGNING_KEY || undefined,
    shareSigningSecretArn: env.SHARE_SIGNING_SECRET_ARN || undefined,
    publicOrigin: env.PUBLIC_ORIGIN || undefined,
    preflightTimeoutSeconds: positive(env, 'PREFLIGHT_TIMEOUT_SECONDS', 60),
    validateTimeoutSeconds: positive(env, 'VALIDATE_TIMEOUT_SECONDS', 60),
    optimizeTimeoutSeconds: positive(env, 'OPTIMIZE_TIMEOUT_SECONDS', 120),
    engineMaxHeapMb: positive(env, 'ENGINE_MAX_HEAP_MB', defaultEngineHeapMb(env)),
    engineMaxStreamMb: positive(env, 'ENGINE_MAX_STREAM_MB', 256),
    engineMaxDecodedMb: positive(env, 'ENGINE_MAX_DECODED_MB', 4096),
    previewBatchPages: positive(env, 'PREVIEW_BATCH_PAGES', 20),
    retentionDays: positive(env, 'RETENTION_DAYS', DEFAULT_RETENTION_DAYS),
  };
}
