/**
 * The retention sweep in the cloud (lib/constructs/retention-sweep.ts invokes it on a schedule):
 * deletes every job whose retention has run out exactly as DELETE /jobs/{id} does
 * (domain/use-cases/expire-jobs.ts), the local runtime's timer in the cloud. It goes first, so a
 * job's files and its references to shared uploads are released with it; DynamoDB's TTL on the
 * records, a day later (adapters/aws/dynamo-items.ts), only catches what a sweep missed.
 */
import '../platform/polyfills';
import { expireJobs } from '../domain/use-cases/expire-jobs';
import { services } from '../platform/services';

export interface SweepResult {
  deleted: number;
  failed: string[];
}

export async function handler(): Promise<SweepResult> {
  const report = await expireJobs(services());
  for (const failure of report.failed) {
    const reason = failure.error instanceof Error ? failure.error.message : String(failure.error);
    console.error(JSON.stringify({ level: 'error', component: 'retention-sweep', message: 'could not delete an expired job; the next sweep tries again', jobId: failure.id, reason }));
  }
  console.log(JSON.stringify({ level: 'info', component: 'retention-sweep', message: 'swept expired jobs', deleted: report.deleted.length, failed: report.failed.length }));
  return { deleted: report.deleted.length, failed: report.failed.map((f) => f.id) };
}
