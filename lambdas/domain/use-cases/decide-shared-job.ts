/**
 * POST /share/decision (docs/api.md §3, Share links): the shop's customer approves the
 * shared proof or asks for changes, with a note.
 *
 * One decision per job, whichever link it came through: it is what the shop
 * acts on (its webhook may start printing), so a second one is 409
 * `already_decided` rather than a silent change; a changed mind is a new proof
 * (a new job, a new link). The decision needs a finished job, since it is a
 * decision on the results.
 *
 * For a job whose policy is `manual_review` and that has no review yet, the
 * decision is also its review (approved → approve, changes requested →
 * reject; `keyId: "share-link"`), and canProceed follows as with
 * POST /jobs/{id}/review. Then the job-decision event is published; the
 * webhook caller sends `job.approved` or `job.changes_requested` for a job
 * with a webhook.
 */
import { ApiError } from '../errors';
import { iso } from '../ids';
import { isTerminal, type Approval, type JobGraph, type Review } from '../model';
import { canProceed } from '../outcomes';
import type { EventPublisher } from '../ports';
import { openSharedJob, type OpenSharedJobDeps, type SharedJob } from './open-shared-job';
import { asError, logger } from '../../observability/logger';

export interface DecideSharedJobDeps extends OpenSharedJobDeps {
  events: EventPublisher;
}

export interface SharedDecision {
  decision: Approval['decision'];
  note: string | null;
}

/** Who a review made by a share-link decision is recorded as. */
export const SHARE_LINK_REVIEWER = 'share-link';

function reviewFrom(graph: JobGraph, approval: Approval): { review: Review; canProceed: boolean } | null {
  const { job } = graph;
  if (job.policy.onFail !== 'manual_review' || job.review) return null;
  const review: Review = { decision: approval.decision === 'approved' ? 'approve' : 'reject', note: approval.note, at: approval.at, keyId: SHARE_LINK_REVIEWER };
  return { review, canProceed: canProceed(job.policy.onFail, graph.tasks, review) };
}

export async function decideSharedJob(deps: DecideSharedJobDeps, token: string | undefined, decision: SharedDecision): Promise<SharedJob> {
  const { graph, claims } = await openSharedJob(deps, token);
  const { job } = graph;
  if (!claims.allowDecision) throw new ApiError('decision_not_allowed', 'This share link is for viewing only; it does not allow a decision.');
  if (!isTerminal(job.status)) throw new ApiError('job_not_terminal', 'The proof is not ready yet; decide once it is done.');
  if (job.approval) throw new ApiError('already_decided', `A decision on this proof was already recorded (${job.approval.decision.replace('_', ' ')}).`);

  const approval: Approval = { decision: decision.decision, note: decision.note, at: iso(deps.clock.now()) };
  let recorded = await deps.jobs.recordApproval(job.id, approval, reviewFrom(graph, approval));
  if (!recorded) {
    // Something changed since the read: a decision (409), or a review made meanwhile (record without one).
    const now = await deps.jobs.getGraph(claims.accountId, job.id);
    if (!now) throw new ApiError('share_link_revoked', 'This proof is no longer shared; ask the sender for a new link.');
    if (now.job.approval) throw new ApiError('already_decided', 'A decision on this proof was already recorded.');
    recorded = await deps.jobs.recordApproval(job.id, approval, reviewFrom(now, approval));
    if (!recorded) throw new ApiError('already_decided', 'A decision on this proof was already recorded.');
  }
  try {
    await deps.events.publishJobDecision({ jobId: job.id, accountId: job.accountId, decision: approval.decision, hasWebhook: Boolean(job.webhook) });
  } catch (error) {
    // The decision stands (it is on the job for GET /jobs/{id}); only its webhook is lost, which is logged for the operator.
    logger.error({ message: 'job-decision event not published', jobId: job.id }, asError(error));
  }
  const updated = await deps.jobs.getGraph(claims.accountId, job.id);
  if (!updated) throw new ApiError('share_link_revoked', 'This proof is no longer shared; ask the sender for a new link.');
  return { graph: updated, claims };
}
