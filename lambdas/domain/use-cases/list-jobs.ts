/**
 * GET /jobs: one page of the caller's jobs, newest first, each presented like
 * GET /jobs/{id} (or lean with `preview`: tasks without steps, no summary or
 * results). The store pages and filters job records; each job's graph is then
 * read, a few at a time. A job deleted between the two reads is left out.
 */
import type { BlobStore, JobListQuery, JobStore } from '../ports';
import { presentJob, type PresentedJob } from '../present/job';

export interface ListJobsDeps {
  jobs: JobStore;
  blobs: BlobStore;
  downloadUrlExpiresSeconds: number;
}

/** The store's query without the account (the caller's) and with the client's names. */
export type ListJobsRequest = Omit<JobListQuery, 'accountId' | 'cursor'> & {
  nextKey?: string;
  preview: boolean;
};

export const DEFAULT_LIST_LIMIT = 20;
/** Graph reads in flight at once: enough to hide latency, few enough not to throttle the table. */
const READ_CONCURRENCY = 8;

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function listJobs(
  deps: ListJobsDeps,
  accountId: string,
  request: ListJobsRequest,
): Promise<{ jobs: PresentedJob[]; nextKey: string | null }> {
  const { nextKey, preview, ...filters } = request;
  const page = await deps.jobs.listJobs({
    accountId,
    ...filters,
    ...(nextKey !== undefined ? { cursor: nextKey } : {}),
  });
  const presentDeps = { blobs: deps.blobs, expiresIn: deps.downloadUrlExpiresSeconds };
  const presented = await mapLimited(page.jobs, READ_CONCURRENCY, async (job) => {
    const graph = await deps.jobs.getGraph(accountId, job.id);
    return graph ? presentJob(graph, presentDeps, { lean: preview }) : null;
  });
  return { jobs: presented.filter((j): j is PresentedJob => j !== null), nextKey: page.nextCursor };
}
