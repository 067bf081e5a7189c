/**
 * DELETE /jobs/{id} (docs/api.md §3): stops a running execution first (so it writes
 * nothing more), deletes every stored file under the job's prefix (sources,
 * outputs, reports), then the records. Records go last: if a file deletion
 * fails, the job is still there to delete again.
 */
import { jobPrefix } from '../blob-keys';
import { ApiError } from '../errors';
import { isTerminal } from '../model';
import type { BlobStore, JobStore, Orchestrator } from '../ports';

export interface DeleteJobDeps {
  jobs: JobStore;
  blobs: BlobStore;
  orchestrator: Orchestrator;
}

export async function deleteJob(deps: DeleteJobDeps, accountId: string, jobId: string): Promise<{ id: string; taskIds: string[] }> {
  const job = await deps.jobs.getJob(accountId, jobId);
  if (!job) throw new ApiError('not_found', 'No such job.');
  if (!isTerminal(job.status) && job.workflowId) await deps.orchestrator.stop(job.workflowId);
  await deps.blobs.deletePrefix(jobPrefix(job.accountId, job.id));
  await deps.jobs.deleteJob(job.id);
  return { id: job.id, taskIds: job.taskIds };
}
