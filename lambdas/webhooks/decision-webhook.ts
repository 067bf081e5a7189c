/**
 * The decision webhook (docs/api.md §9 and §3, Share links): when the shop's customer decides
 * on a shared proof, a job with a webhook gets `job.approved` or
 * `job.changes_requested`, signed like job.completed, with the job's summary
 * fields and the `approval`. Like job.completed, it carries no URLs.
 *
 * Delivery: one signed POST per job-decision event. A receiver that fails
 * (not 2xx, no answer) makes this throw, so the event's delivery is retried
 * the way EventBridge retries an asynchronous Lambda target (twice, about one
 * and two minutes later; the local event bus does the same). Every attempt
 * carries the same `webhook-id` (`msg_<jobId>_decision`: one decision per job),
 * so a receiver that got it twice can tell.
 */
import { jobSummary, type JobSummary } from '../domain/outcomes';
import type { Approval, JobGraph } from '../domain/model';
import { sendSignedWebhook, type WebhookDeps } from './webhook-attempt';

export const DECISION_EVENT_TYPES = { approved: 'job.approved', changes_requested: 'job.changes_requested' } as const;

export type DecisionWebhookPayload = JobSummary & { type: (typeof DECISION_EVENT_TYPES)[Approval['decision']]; approval: Approval };

export const decisionMessageId = (jobId: string): string => `msg_${jobId}_decision`;

export function buildDecisionPayload(graph: JobGraph, approval: Approval): DecisionWebhookPayload {
  return {
    ...jobSummary(graph.job, graph.tasks),
    type: DECISION_EVENT_TYPES[approval.decision],
    approval: { decision: approval.decision, note: approval.note, at: approval.at },
  };
}

export class DecisionWebhookFailedError extends Error {
  constructor(jobId: string, why: string) {
    super(`the decision webhook of job ${jobId} was not delivered: ${why}`);
    this.name = 'DecisionWebhookFailedError';
  }
}

/** Sends the job's decision webhook; resolves when delivered or when there is nothing to send, throws when the receiver failed. */
export async function deliverDecisionWebhook(deps: Pick<WebhookDeps, 'jobs' | 'keys' | 'clock' | 'config'>, jobId: string): Promise<'delivered' | 'nothing_to_send'> {
  const graph = await deps.jobs.getGraphById(jobId);
  const approval = graph?.job.approval;
  if (!graph || !graph.job.webhook || !approval) return 'nothing_to_send';
  const body = JSON.stringify(buildDecisionPayload(graph, approval));
  const sent = await sendSignedWebhook(deps, graph.job, decisionMessageId(jobId), body);
  if (sent.error !== null) throw new DecisionWebhookFailedError(jobId, sent.error);
  return 'delivered';
}
