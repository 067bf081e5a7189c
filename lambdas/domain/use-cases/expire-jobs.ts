/**
 * The retention sweep (domain/retention.ts): deletes every job whose retention has run out, each
 * exactly as DELETE /jobs/{id} does (delete-job.ts), so its execution stops, its files go from
 * storage, its references to shared uploads are released (a file another job still uses stays:
 * upload-references.ts) and its records go last.
 *
 * The local runtime runs it on a timer (local/retention-sweep.ts): dynalite has no TTL. In the
 * cloud DynamoDB's TTL deletes the records and the bucket's lifecycle rule the files
 * (lib/constructs/storage.ts).
 */
import { ApiError } from '../errors';
import type { Clock } from '../ports';
import { deleteJob, type DeleteJobDeps } from './delete-job';

export interface ExpireJobsDeps extends DeleteJobDeps {
  clock: Clock;
}

export interface SweepReport {
  deleted: string[];
  /** Jobs whose deletion failed this time; they are still expired, so the next sweep tries again. */
  failed: { id: string; error: unknown }[];
}

export async function expireJobs(deps: ExpireJobsDeps): Promise<SweepReport> {
  const report: SweepReport = { deleted: [], failed: [] };
  for (const job of await deps.jobs.listExpiredJobs(deps.clock.now())) {
    try {
      await deleteJob(deps, job.accountId, job.id);
      report.deleted.push(job.id);
    } catch (error) {
      // Deleted meanwhile (DELETE /jobs/{id}, another sweep): nothing left to do.
      if (error instanceof ApiError && error.code === 'not_found') continue;
      report.failed.push({ id: job.id, error });
    }
  }
  return report;
}
