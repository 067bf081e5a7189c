/**
 * A worker whose conditional write was refused may have lost it to
 * DELETE /jobs/{id}: the job's records are gone, and so were its files — but a
 * file this worker stored after the delete emptied the job's prefix is not.
 * Once the job no longer exists everything under its prefix is orphaned by
 * definition, so the worker removes the prefix.
 *
 * Deleting only "what this invocation wrote" after any refused write would be
 * wrong: a retry of the same step uses the same deterministic keys and may be
 * the attempt that won.
 */
import { jobPrefix } from '../domain/blob-keys';
import type { Services } from '../domain/ports';

/** True when the job was gone and its leftover files were removed. */
export async function discardFilesOfDeletedJob(s: Services, accountId: string, jobId: string): Promise<boolean> {
  if (await s.jobs.getJob(accountId, jobId)) return false;
  await s.blobs.deletePrefix(jobPrefix(accountId, jobId));
  return true;
}
