/**
 * POST /jobs/{id}/review (docs/api.md §2): an admin key decides on a finished job
 * whose policy is `manual_review`. The decision is recorded once, with who and
 * when, and canProceed is recomputed with the policy rules (outcomes.ts).
 */
import { ApiError } from '../errors';
import { iso } from '../ids';
import { isTerminal, type Caller, type JobGraph, type Review } from '../model';
import { canProceed } from '../outcomes';
import type { Clock, JobStore } from '../ports';

export interface ReviewJobDeps {
  jobs: JobStore;
  clock: Clock;
}

export interface ReviewDecision {
  decision: Review['decision'];
  note: string | null;
}

export async function reviewJob(deps: ReviewJobDeps, caller: Caller, jobId: string, decision: ReviewDecision): Promise<JobGraph> {
  if (caller.role !== 'admin') throw new ApiError('forbidden', 'Only keys with the admin role can review jobs.');
  const graph = await deps.jobs.getGraph(caller.accountId, jobId);
  if (!graph) throw new ApiError('not_found', 'No such job.');
  const { job } = graph;
  if (job.policy.onFail !== 'manual_review') {
    throw new ApiError('review_not_applicable', `The job's policy is "${job.policy.onFail}", not "manual_review"; there is nothing to review.`);
  }
  if (!isTerminal(job.status)) throw new ApiError('job_not_terminal', 'The job has not finished yet; review it once it is done.');
  if (job.review) throw new ApiError('already_reviewed', `The job was already reviewed (${job.review.decision}).`);

  const review: Review = { decision: decision.decision, note: decision.note, at: iso(deps.clock.now()), keyId: caller.keyId };
  const proceed = canProceed(job.policy.onFail, graph.tasks, review);
  if (!(await deps.jobs.recordReview(job.id, review, proceed))) {
    throw new ApiError('already_reviewed', 'The job was already reviewed.');
  }
  const updated = await deps.jobs.getGraph(caller.accountId, jobId);
  if (!updated) throw new ApiError('not_found', 'No such job.');
  return updated;
}
