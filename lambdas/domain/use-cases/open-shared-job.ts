/**
 * Opens the one job a share token names (docs/api.md §3, Share links), for the public
 * proof page: the token must carry our MAC, be unexpired, and still match the
 * job record (same account, same share generation: DELETE /jobs/{id}/share
 * raises it). Any failure is a 4xx that names what is wrong with the link and
 * shows nothing of any job.
 */
import { ApiError } from '../errors';
import type { JobGraph } from '../model';
import type { Clock, JobStore, ShareKeySource } from '../ports';
import { verifyShareToken, type ShareClaims } from '../share/share-token';

export interface OpenSharedJobDeps {
  jobs: JobStore;
  clock: Clock;
  shareKey: ShareKeySource;
}

export interface SharedJob {
  graph: JobGraph;
  claims: ShareClaims;
}

export async function openSharedJob(deps: OpenSharedJobDeps, token: string | undefined): Promise<SharedJob> {
  if (token === undefined || token.trim() === '') {
    throw new ApiError('share_link_invalid', 'Send the share link\'s token in the Share-Token header.');
  }
  const check = verifyShareToken(await deps.shareKey.signingKey(), token, deps.clock.now().getTime());
  if (!check.ok) {
    if (check.problem === 'expired') throw new ApiError('share_link_expired', 'This share link has expired; ask the sender for a new one.');
    throw new ApiError('share_link_invalid', 'This share link is not valid; check that it was copied whole.');
  }
  const { claims } = check;
  const graph = await deps.jobs.getGraph(claims.accountId, claims.jobId);
  // Gone, or (only with a leaked key) another account's: as good as revoked, and nothing is shown.
  if (!graph) throw new ApiError('share_link_revoked', 'This proof is no longer shared; ask the sender for a new link.');
  if ((graph.job.shareGeneration ?? 0) !== claims.generation) {
    throw new ApiError('share_link_revoked', 'This share link was withdrawn by the sender; ask them for a new one.');
  }
  return { graph, claims };
}
