/**
 * Retention in the local runtime: dynalite has no TTL and s3rver no lifecycle rules, so the
 * runtime deletes expired jobs itself, every RETENTION_SWEEP_SECONDS (default 60), through the
 * same use case as DELETE /jobs/{id} (domain/use-cases/expire-jobs.ts): records, files and upload
 * references go together. Sweeps never overlap: the next is scheduled when one ends.
 */
import { expireJobs, type ExpireJobsDeps } from '../lambdas/domain/use-cases/expire-jobs';
import type { ComponentLog } from '../lambdas/observability/logger';

export const DEFAULT_RETENTION_SWEEP_SECONDS = 60;

export interface RetentionSweep {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

export function startRetentionSweep(deps: ExpireJobsDeps, intervalSeconds: number, log: ComponentLog): RetentionSweep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const sweep = async () => {
    try {
      const report = await expireJobs(deps);
      if (report.deleted.length > 0) log(`retention: deleted ${report.deleted.length} expired job(s): ${report.deleted.join(', ')}`);
      for (const failure of report.failed) log(`retention: could not delete expired job ${failure.id}; trying again next sweep`, failure.error);
    } catch (error) {
      log('retention sweep failed; trying again next sweep', error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(schedule);
    }, intervalSeconds * 1000);
    // The sweep alone never keeps the process alive.
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
