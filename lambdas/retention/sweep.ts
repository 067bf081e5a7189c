/**
 * The retention sweep in the cloud (lib/constructs/retention-sweep.ts invokes it on a schedule):
 * deletes every job whose retention has run out exactly as DELETE /jobs/{id} does
 * (domain/use-cases/expire-jobs.ts), the local runtime's timer in the cloud. It goes first, so a
 * job's files and its references to shared uploads are released with it; DynamoDB's TTL on the
 * records, a day later (adapters/aws/dynamo-items.ts), only catches what a sweep missed.
 */
import '../platform/polyfills';
import type { Context } from 'aws-lambda';
import { expireJobs } from '../domain/use-cases/expire-jobs';
import { withInvocationLog } from '../observability/invocation';
import { asError, logger } from '../observability/logger';
import { services } from '../platform/services';

export interface SweepResult {
  deleted: number;
  failed: string[];
}

export function handler(_event?: unknown, context?: Partial<Context>): Promise<SweepResult> {
  return withInvocationLog(context, {}, async () => {
    const report = await expireJobs(services());
    for (const failure of report.failed) {
      logger.error({ message: 'could not delete an expired job; the next sweep tries again', component: 'retention-sweep', jobId: failure.id }, asError(failure.error));
    }
    logger.info({ message: 'swept expired jobs', component: 'retention-sweep', deleted: report.deleted.length, failed: report.failed.length });
    return { deleted: report.deleted.length, failed: report.failed.map((f) => f.id) };
  });
}
