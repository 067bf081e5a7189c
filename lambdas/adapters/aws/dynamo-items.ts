/**
 * The single-table item layout. Every record lives in one table (TABLE_SCHEMA:
 * pk/sk, index gsi1 on gsi1pk/gsi1sk, index expiry on expiresDay/expiresAtIso,
 * index unfinished on unfinished/id, TTL attribute expiresAt in epoch seconds).
 *
 *   entity   pk                              sk                          gsi1pk          gsi1sk
 *   job      JOB#<jobId>                     JOB                         ACCT#<account>  <jobId>      expiresAt (TTL),
 *                                                                        expiresDay      expiresAtIso (index expiry)
 *                                                                        unfinished=job  id (index unfinished, until terminal)
 *   task     JOB#<jobId>                     TASK#<taskId>                                                expiresAt (TTL)
 *   step     JOB#<jobId>                     STEP#<stepId>                                                expiresAt (TTL)
 *   audit    JOB#<jobId>                     AUDIT#<taskId>#<at>#<seq>
 *   upload   UPLOAD#<uploadId>               UPLOAD                                                       expiresAt (TTL)
 *   api key  KEY#<sha256 of secret>          KEY                         KEYS            <keyId>
 *   account  ACCOUNT#<accountId>             ACCOUNT
 *   profile  ACCOUNT#<accountId>             PROFILE#<profileId>         an account's own preflight profile, current version
 *   idem     IDEM#<account>#<sha256(key)>    IDEM                                                         expiresAt (TTL)
 *   sweep    RETENTION                       SWEEP       the oldest expiry day a retention sweep must still read
 *
 * Why this shape:
 * - Everything of a job shares its partition, so the whole graph is one Query
 *   and DELETE is one Query plus batch deletes; nothing needs TransactWriteItems.
 * - Job ids are ULIDs, so gsi1sk sorts an account's jobs by creation time and
 *   the list reads the index backwards for newest first.
 * - A step's sort key is its id alone, because transitions address a step by
 *   (jobId, stepId); the graph reader orders steps by task and index itself.
 * - Audit entries are separate items keyed by time plus a per-process
 *   monotonic sequence: appending never reads or rewrites anything, and a Query
 *   returns each task's entries oldest first.
 * - Record fields are stored as top-level attributes (so filters and updates
 *   can name them) next to the key attributes and `entity`. The one clash is
 *   UploadRecord.expiresAt and JobRecord.expiresAt (ISO strings) with the TTL
 *   attribute: those items keep the ISO string in `expiresAtIso`.
 * - A job's retention (domain/retention.ts) is, a day later, the TTL of its job,
 *   task and step items, all written at creation (jobRetentionTtl). Audit items,
 *   appended later by workers, carry none: the retention sweep deletes the whole
 *   partition (use-cases/expire-jobs.ts).
 * - The retention sweep finds expired jobs in the sparse index expiry: only job items with an
 *   expiry carry its key expiresDay (the UTC day of expiresAtIso), so a sweep reads the days
 *   since the last one, never the table (dynamo-expired-jobs.ts).
 * - An account's profiles share its partition, so listing them is one Query (begins_with
 *   PROFILE#) and no account can reach another's by id: the account is in the key.
 * - dynalite has no TTL, so every reader of a TTL'd item checks expiresAt itself.
 */
import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { isTerminal, type AccountProfileRecord, type AccountRecord, type ApiKeyRecord, type AuditEntry, type JobRecord, type StepRecord, type TaskRecord, type UploadRecord } from '../../domain/model';
import { TABLE_SCHEMA } from './table-schema';

export type ItemKey = { pk: string; sk: string };
export type Item = Record<string, unknown>;

export type Entity = 'job' | 'task' | 'step' | 'audit' | 'upload' | 'key' | 'account' | 'profile' | 'idem' | 'sweep';

/** The attributes the layout adds to a record; stripped when a record is read back. */
const LAYOUT_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity'] as const;

export const JOB_SK = 'JOB';
export const TASK_SK_PREFIX = 'TASK#';
export const STEP_SK_PREFIX = 'STEP#';
export const AUDIT_SK_PREFIX = 'AUDIT#';
export const KEYS_GSI_PK = 'KEYS';

export const jobPartition = (jobId: string): string => `JOB#${jobId}`;
export const accountJobsPartition = (accountId: string): string => `ACCT#${accountId}`;

export const jobItemKey = (jobId: string): ItemKey => ({ pk: jobPartition(jobId), sk: JOB_SK });
export const taskItemKey = (jobId: string, taskId: string): ItemKey => ({ pk: jobPartition(jobId), sk: `${TASK_SK_PREFIX}${taskId}` });
export const stepItemKey = (jobId: string, stepId: string): ItemKey => ({ pk: jobPartition(jobId), sk: `${STEP_SK_PREFIX}${stepId}` });
export const uploadItemKey = (uploadId: string): ItemKey => ({ pk: `UPLOAD#${uploadId}`, sk: 'UPLOAD' });
/** How far back the next retention sweep must look (dynamo-expired-jobs.ts). */
export const retentionSweepKey: ItemKey = { pk: 'RETENTION', sk: 'SWEEP' };
/** The jobs that read an upload's file (dynamo-upload-store.ts). */
export const uploadReferencesKey = (uploadId: string): ItemKey => ({ pk: `UPLOAD#${uploadId}`, sk: 'REFS' });
export const apiKeyItemKey = (hash: string): ItemKey => ({ pk: `KEY#${hash}`, sk: 'KEY' });
export const accountItemKey = (accountId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });
export const PROFILE_SK_PREFIX = 'PROFILE#';
/** An account's own preflight profile (dynamo-profile-store.ts), in the account's partition. */
export const profileItemKey = (accountId: string, profileId: string): ItemKey => ({ pk: accountItemKey(accountId).pk, sk: `${PROFILE_SK_PREFIX}${profileId}` });
/** Hashing the client's key bounds its length and keeps it out of the key schema verbatim. */
export const idempotencyItemKey = (accountId: string, idempotencyKey: string): ItemKey => ({
  pk: `IDEM#${accountId}#${sha256Hex(idempotencyKey)}`,
  sk: 'IDEM',
});

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export const epochSeconds = (date: Date | string): number => Math.floor(new Date(date).getTime() / 1000);

// Audit entries of the same millisecond keep their append order within one
// process; across processes the timestamp decides, which is the best available.
const auditSequence = monotonicFactory();

export function auditSortKey(taskId: string, at: string): string {
  return `${AUDIT_SK_PREFIX}${taskId}#${at}#${auditSequence()}`;
}

function strip(item: Item, extra: readonly string[] = []): Item {
  const out: Item = { ...item };
  for (const name of [...LAYOUT_ATTRIBUTES, ...extra]) delete out[name];
  return out;
}

// ---------------------------------------------------------------- jobs, tasks, steps, audit

/**
 * How long after a job's expiry DynamoDB's TTL may delete its records: the retention sweep
 * (use-cases/expire-jobs.ts, hourly in the cloud) deletes the job first, with its files and its
 * references to shared uploads, which TTL alone would leave behind; TTL only catches a job a
 * sweep missed.
 */
export const RECORD_TTL_SLACK_SECONDS = 24 * 3600;

/** The UTC day (`2026-12-01`) of an ISO 8601 instant in UTC: the expiry index's partition of a job. */
export const expiryDay = (isoInstant: string): string => isoInstant.slice(0, 10);

/** The TTL attribute of every item written with a job: its expiry plus the slack, in epoch seconds, or none. */
export function jobRetentionTtl(job: Pick<JobRecord, 'expiresAt'>): { expiresAt?: number } {
  return job.expiresAt ? { expiresAt: epochSeconds(job.expiresAt) + RECORD_TTL_SLACK_SECONDS } : {};
}

export function jobToItem(job: JobRecord): Item {
  const { expiresAt, ...rest } = job;
  return {
    ...rest,
    ...jobItemKey(job.id),
    gsi1pk: accountJobsPartition(job.accountId),
    gsi1sk: job.id,
    entity: 'job',
    ...(expiresAt ? { expiresAtIso: expiresAt, expiresDay: expiryDay(expiresAt) } : {}),
    ...(isTerminal(job.status) ? {} : { [UNFINISHED_KEY]: UNFINISHED_VALUE }),
    ...jobRetentionTtl(job),
  };
}

/** The unfinished index's partition key and its one value (TABLE_SCHEMA.unfinishedIndex): on a job item until it is terminal. */
export const UNFINISHED_KEY = TABLE_SCHEMA.unfinishedIndex.partitionKey;
export const UNFINISHED_VALUE = 'job';
export function itemToJob(item: Item): JobRecord {
  const { expiresAtIso, ...rest } = strip(item, ['expiresAt', 'expiresDay', UNFINISHED_KEY]);
  return (typeof expiresAtIso === 'string' ? { ...rest, expiresAt: expiresAtIso } : rest) as unknown as JobRecord;
}

/** `ttl`: the job's retention (jobRetentionTtl); the record itself has no expiry of its own. */
export const taskToItem = (task: TaskRecord, ttl: { expiresAt?: number } = {}): Item => ({ ...task, ...taskItemKey(task.jobId, task.id), entity: 'task', ...ttl });
export const itemToTask = (item: Item): TaskRecord => strip(item, ['expiresAt']) as unknown as TaskRecord;

export const stepToItem = (step: StepRecord, ttl: { expiresAt?: number } = {}): Item => ({ ...step, ...stepItemKey(step.jobId, step.id), entity: 'step', ...ttl });
export const itemToStep = (item: Item): StepRecord => strip(item, ['expiresAt']) as unknown as StepRecord;

export function auditToItem(jobId: string, taskId: string, entry: AuditEntry): Item {
  return { ...entry, pk: jobPartition(jobId), sk: auditSortKey(taskId, entry.at), entity: 'audit', taskId };
}
export function itemToAudit(item: Item): { taskId: string; entry: AuditEntry } {
  const { taskId, ...entry } = strip(item) as unknown as AuditEntry & { taskId: string };
  return { taskId, entry };
}

// ---------------------------------------------------------------- uploads, keys, accounts

/**
 * How long an upload record stays usable after its presigned POST expires: a
 * client may finish uploading at the last moment and create the job later.
 */
export const UPLOAD_RECORD_RETENTION_SECONDS = 24 * 3600;

export function uploadToItem(upload: UploadRecord): Item {
  const { expiresAt, ...rest } = upload;
  return {
    ...rest,
    ...uploadItemKey(upload.id),
    entity: 'upload',
    expiresAtIso: expiresAt,
    expiresAt: epochSeconds(expiresAt) + UPLOAD_RECORD_RETENTION_SECONDS,
  };
}
export function itemToUpload(item: Item): UploadRecord {
  const { expiresAtIso, ...rest } = strip(item, ['expiresAt']);
  return { ...rest, expiresAt: expiresAtIso } as unknown as UploadRecord;
}

export function apiKeyToItem(key: ApiKeyRecord): Item {
  return { ...key, ...apiKeyItemKey(key.hash), gsi1pk: KEYS_GSI_PK, gsi1sk: key.id, entity: 'key' };
}
export const itemToApiKey = (item: Item): ApiKeyRecord => strip(item) as unknown as ApiKeyRecord;

export const accountToItem = (account: AccountRecord): Item => ({ ...account, ...accountItemKey(account.id), entity: 'account' });
export const itemToAccount = (item: Item): AccountRecord => strip(item) as unknown as AccountRecord;

export const profileToItem = (profile: AccountProfileRecord): Item => ({ ...profile, ...profileItemKey(profile.accountId, profile.id), entity: 'profile' });
export const itemToProfile = (item: Item): AccountProfileRecord => strip(item) as unknown as AccountProfileRecord;

/** True when a TTL'd item's expiresAt (epoch seconds) has passed; DynamoDB deletes such items only eventually. */
export function isExpired(item: Item, now: Date): boolean {
  const expiresAt = item.expiresAt;
  return typeof expiresAt === 'number' && expiresAt * 1000 <= now.getTime();
}
