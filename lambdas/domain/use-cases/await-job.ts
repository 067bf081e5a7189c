/**
 * Sync mode (docs/api.md §3): after creating a job, wait up to `waitMs` for it to
 * become terminal by polling the job store — often at first (100 ms), then
 * backing off to once a second, since short jobs finish in well under a second
 * and long ones need not be hammered. Returns the graph as it then stands.
 */
import { isTerminal, type JobGraph } from '../model';
import type { JobStore } from '../ports';

export interface AwaitJobDeps {
  jobs: JobStore;
  /** Injectable for tests; real timers otherwise. */
  sleep?: (ms: number) => Promise<void>;
  /** Monotonic milliseconds; the domain Clock may be fixed in tests, elapsed time must not be. */
  elapsed?: () => number;
}

export const FIRST_POLL_MS = 100;
export const MAX_POLL_MS = 1000;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function awaitTerminalJob(
  deps: AwaitJobDeps,
  accountId: string,
  jobId: string,
  waitMs: number,
): Promise<{ graph: JobGraph | null; terminal: boolean }> {
  const sleep = deps.sleep ?? defaultSleep;
  const start = performance.now();
  const elapsed = deps.elapsed ?? (() => performance.now() - start);
  let delay = FIRST_POLL_MS;
  for (;;) {
    const job = await deps.jobs.getJob(accountId, jobId);
    if (!job) return { graph: null, terminal: false };
    if (isTerminal(job.status)) return { graph: await deps.jobs.getGraph(accountId, jobId), terminal: true };
    const remaining = waitMs - elapsed();
    if (remaining <= 0) {
      // Read once more: the job may have finished since the last poll.
      const graph = await deps.jobs.getGraph(accountId, jobId);
      return { graph, terminal: graph !== null && isTerminal(graph.job.status) };
    }
    await sleep(Math.min(delay, remaining));
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
}
