/**
 * Publishes OldestRunningJobAge: how long the oldest job that is not yet
 * terminal (pending or running) has existed, in seconds, 0 when there is none.
 * A schedule invokes it (lib/constructs/alarms.ts), so the number keeps coming
 * when nothing else runs: a stuck job is exactly when no finaliser would publish it.
 *
 * The age is read from the job's id (a ULID carries its creation time). The
 * job store finds the oldest unfinished job with JobStore.oldestUnfinishedJobId,
 * in DynamoDB one Query of a sparse index that holds only unfinished jobs: a
 * Scan every five minutes would read the whole retention period's table each
 * time, which at a thousand jobs a day would cost more than the jobs themselves.
 */
import '../platform/polyfills';
import { idTime } from '../domain/ids';
import type { Clock, JobStore } from '../domain/ports';
import { services } from '../platform/services';
import { recordMetric, withMetricsFlushed } from '../platform/observability/metrics';

/** Seconds since the oldest unfinished job was created; 0 when every job is terminal. */
export async function oldestRunningJobAgeSeconds(s: { jobs: Pick<JobStore, 'oldestUnfinishedJobId'>; clock: Clock }): Promise<number> {
  const oldest = await s.jobs.oldestUnfinishedJobId();
  if (!oldest) return 0;
  return Math.max(0, Math.floor((s.clock.now().getTime() - idTime(oldest)) / 1000));
}

export function handler(): Promise<{ oldestRunningJobAgeSeconds: number }> {
  return withMetricsFlushed(async () => {
    const age = await oldestRunningJobAgeSeconds(services());
    recordMetric('oldestRunningJobAge', {}, age);
    return { oldestRunningJobAgeSeconds: age };
  });
}
