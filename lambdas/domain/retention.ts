/**
 * Retention (docs/api.md §11 rule 1, `expiresAt`): a job, its records and its files are deleted a
 * retention period after the job was created. The period is the deployment's (RETENTION_DAYS,
 * the stack's `retentionDays`, default 30 days) unless the job's account has its own (set with
 * the keys tool, AccountRecord.retentionDays). The instant is fixed when the job is created, so
 * changing a period later applies to new jobs only.
 *
 * Imports nothing: the API, the stores and the keys tool all read it.
 */

export const DEFAULT_RETENTION_DAYS = 30;

/**
 * The longest period a deployment or an account may have (ten years). The bucket's lifecycle
 * backstop (lib/constructs/storage.ts) waits at least this long, since it cannot tell one
 * account's files from another's.
 */
export const MAX_RETENTION_DAYS = 3650;

/** How a refused period is explained, by the keys tool and the stack alike. */
export const RETENTION_DAYS_RULE = `a whole number of days from 1 to ${MAX_RETENTION_DAYS}`;

const DAY_MS = 24 * 3600 * 1000;

/** The period that applies to an account's new jobs: its own when set, else the deployment's. */
export function retentionDaysFor(account: { retentionDays?: number | null } | null, deploymentDays: number): number {
  return account?.retentionDays ?? deploymentDays;
}

/**
 * When retention deletes a job created at `createdAt` (ISO 8601), whole seconds (the precision of
 * DynamoDB's TTL attribute), as ISO 8601. Days may be a fraction (tests use seconds' worth).
 */
export function jobExpiry(createdAt: string, days: number): string {
  const ms = new Date(createdAt).getTime() + days * DAY_MS;
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString();
}

/** Whether a job's retention has run out at `now`; a job without an expiry never expires. */
export function isPastRetention(job: { expiresAt?: string | null }, now: Date): boolean {
  return typeof job.expiresAt === 'string' && new Date(job.expiresAt).getTime() <= now.getTime();
}

/** A retention period as the keys tool and the stack accept it: RETENTION_DAYS_RULE. */
export function isValidRetentionDays(days: number): boolean {
  return Number.isInteger(days) && days >= 1 && days <= MAX_RETENTION_DAYS;
}
