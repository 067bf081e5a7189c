/**
 * DELETE /jobs/{id} (docs/api.md §3): stops a running execution first (so it writes
 * nothing more), deletes every stored file under the job's prefix (sources,
 * outputs, reports) and its references to uploads (upload-references.ts), then
 * the records. Records go last: if a file deletion fails, the job is still there
 * to delete again.
 */
import { jobPrefix } from '../blob-keys';
import { ApiError } from '../errors';
import { isTerminal } from '../model';
import type { BlobStore, JobStore, Orchestrator, UploadStore } from '../ports';
import { releaseUploads, uploadsUsed } from './upload-references';

export interface DeleteJobDeps {
  jobs: JobStore;
  uploads: UploadStore;
  blobs: BlobStore;
  orchestrator: Orchestrator;
}

export async function deleteJob(deps: DeleteJobDeps, accountId: string, jobId: string): Promise<{ id: string; taskIds: string[] }> {
  const graph = await deps.jobs.getGraph(accountId, jobId);
  if (!graph) throw new ApiError('not_found', 'No such job.');
  const { job } = graph;
  if (!isTerminal(job.status) && job.workflowId) await deps.orchestrator.stop(job.workflowId);
  await deps.blobs.deletePrefix(jobPrefix(job.accountId, job.id));
  // Files shared with other jobs (fileRef uploads) stay while another job refers to them.
  await releaseUploads(deps, job.accountId, job.id, uploadsUsed(graph.tasks.map((t) => t.locator)));
  await deps.jobs.deleteJob(job.id);
  return { id: job.id, taskIds: job.taskIds };
}
