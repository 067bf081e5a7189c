/**
 * POST /jobs/{id}/share and DELETE /jobs/{id}/share (docs/api.md §3, Share links): the shop
 * makes a link to one job's proof for its customer, or revokes every link of
 * the job. Both act on the caller's own jobs only (another account's job is
 * 404, as on every job route).
 */
import { ApiError } from '../errors';
import { iso } from '../ids';
import type { Caller } from '../model';
import type { Clock, JobStore, ShareKeySource } from '../ports';
import { signShareToken } from '../share/share-token';

export interface ShareJobDeps {
  jobs: JobStore;
  clock: Clock;
  shareKey: ShareKeySource;
}

export interface ShareRequest {
  expiresInSeconds: number;
  allowDecision: boolean;
}

export interface ShareLink {
  url: string;
  expiresAt: string;
}

/** The proof page's path on the console's origin; the token follows in the fragment. */
export const PROOF_PAGE_PATH = '/proof';

/**
 * The token goes in the URL's fragment (`/proof#ps1.…`): browsers never send a
 * fragment to a server, so the token is in no access log, CDN log or Referer;
 * the page reads it and sends it to the API in the Share-Token header.
 */
export const proofPageUrl = (origin: string, token: string): string => `${origin}${PROOF_PAGE_PATH}#${token}`;

export async function createShareLink(deps: ShareJobDeps, caller: Caller, jobId: string, request: ShareRequest, origin: string): Promise<ShareLink> {
  const job = await deps.jobs.getJob(caller.accountId, jobId);
  if (!job) throw new ApiError('not_found', 'No such job.');
  const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + request.expiresInSeconds;
  const token = signShareToken(await deps.shareKey.signingKey(), {
    jobId: job.id,
    accountId: job.accountId,
    generation: job.shareGeneration ?? 0,
    expiresAt,
    allowDecision: request.allowDecision,
  });
  return { url: proofPageUrl(origin, token), expiresAt: iso(new Date(expiresAt * 1000)) };
}

export async function revokeShareLinks(deps: Pick<ShareJobDeps, 'jobs'>, caller: Caller, jobId: string): Promise<void> {
  const job = await deps.jobs.getJob(caller.accountId, jobId);
  if (!job || !(await deps.jobs.revokeShares(job.id))) throw new ApiError('not_found', 'No such job.');
}
