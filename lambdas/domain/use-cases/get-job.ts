/**
 * GET /jobs/{id}: the job of the caller's account, presented with presigned
 * URLs (and summary/results once terminal), or the runs view of it
 * (`expand=runs`). Another account's job is indistinguishable from none: 404.
 */
import { ApiError } from '../errors';
import type { JobGraph } from '../model';
import type { BlobStore, JobStore } from '../ports';
import { presentJob, type PresentedJob } from '../present/job';
import { presentRuns, type JobRuns } from '../present/runs';

export interface GetJobDeps {
  jobs: JobStore;
  blobs: BlobStore;
  downloadUrlExpiresSeconds: number;
}

export async function loadJobGraph(jobs: JobStore, accountId: string, jobId: string): Promise<JobGraph> {
  const graph = await jobs.getGraph(accountId, jobId);
  if (!graph) throw new ApiError('not_found', 'No such job.');
  return graph;
}

export async function getJob(deps: GetJobDeps, accountId: string, jobId: string): Promise<PresentedJob> {
  const graph = await loadJobGraph(deps.jobs, accountId, jobId);
  return presentJob(graph, { blobs: deps.blobs, expiresIn: deps.downloadUrlExpiresSeconds });
}

export async function getJobRuns(deps: GetJobDeps, accountId: string, jobId: string): Promise<JobRuns> {
  const graph = await loadJobGraph(deps.jobs, accountId, jobId);
  return presentRuns(graph, { blobs: deps.blobs, expiresIn: deps.downloadUrlExpiresSeconds });
}
