/**
 * Publishes OldestRunningJobAge: how long the oldest job that is not yet
 * terminal (pending or running) has existed, in seconds, 0 when there is none.
 * A schedule invokes it (lib/constructs/alarms.ts), so the number keeps coming
 * when nothing else runs: a stuck job is exactly when no finaliser would publish it.
 *
 * The age is read from the job's id (a ULID carries its creation time). The
 * job store finds unfinished jobs with JobStore.listUnfinishedJobIds, which in
 * DynamoDB scans the table; a schedule of minutes keeps that cheap for a table
 * of a retention period's jobs.
 */
import '../platform/polyfills';
import { idTime } from '../domain/ids';
import type { Clock, JobStore } from '../domain/ports';
import { services } from '../platform/services';
import { recordMetric, withMetricsFlushed } from '../platform/observability/metrics';

/** Seconds since the oldest unfinished job was created; 0 when every job is terminal. */
export async function oldestRunningJobAgeSeconds(s: { jobs: Pick<JobStore, 'listUnfinishedJobIds'>; clock: Clock }): Promise<number> {
  const ids = await s.jobs.listUnfinishedJobIds();
  if (ids.length === 0) return 0;
  const oldest = ids.reduce((min, id) => Math.min(min, idTime(id)), Infinity);
  return Math.max(0, Math.floor((s.clock.now().getTime() - oldest) / 1000));
}

export function handler(): Promise<{ oldestRunningJobAgeSeconds: number }> {
  return withMetricsFlushed(async () => {
    const age = await oldestRunningJobAgeSeconds(services());
    recordMetric('oldestRunningJobAge', {}, age);
    return { oldestRunningJobAgeSeconds: age };
  });
}
