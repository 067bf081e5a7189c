/**
 * Finalise (state `Finalise`, and the safety net for executions that died):
 * makes the job terminal and publishes its terminal event (job-finaliser.ts).
 *
 * Accepted inputs:
 * - `{ jobId, accountId }` from the pipeline's last state;
 * - `{ jobId, accountId, abandoned: true }` when an execution failed or timed out
 *   as a whole (the local orchestrator, or an EventBridge input transformer);
 * - the raw EventBridge "Step Functions Execution Status Change" event (or just
 *   its `detail`), whose `detail.input` is the execution input as a JSON STRING
 *   (`{"jobId":…,"accountId":…,"tasks":[…]}`) — EventBridge cannot parse it for
 *   us, so the CDK rule may pass the event through unchanged. ABORTED executions
 *   are ignored: only DELETE /jobs stops one, and it deletes the job.
 * The records decide what happened (an unfinished step is an interruption
 * whichever way the finaliser was called), so `abandoned` only shows in the log.
 */
import '../platform/polyfills';
import type { Context } from 'aws-lambda';
import { services } from '../platform/services';
import { asObject } from './event-object';
import { recordMetric, withMetricsFlushed } from '../platform/observability/metrics';
import { finaliseJob, type FinaliseResult } from './job-finaliser';
import { elapsedSince, logInvocation } from './invocation-log';
import { withInvocationLog } from '../observability/invocation';

export interface FinaliseRequest {
  jobId: string;
  accountId: string | null;
  abandoned: boolean;
}

const EXECUTION_STATUS_CHANGE = 'Step Functions Execution Status Change';

function parseJson(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return asObject(text);
  try {
    return asObject(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The job a finalise event is about, or null when it names none (or an aborted execution). */
export function parseFinaliseEvent(event: unknown): FinaliseRequest | null {
  const root = asObject(event);
  if (!root) return null;
  const detail = root['detail-type'] === EXECUTION_STATUS_CHANGE || 'detail' in root ? asObject(root.detail) : null;
  const execution = detail ?? ('executionArn' in root && 'input' in root ? root : null);
  if (execution) {
    if (execution.status === 'ABORTED' || execution.status === 'RUNNING' || execution.status === 'SUCCEEDED') return null;
    const input = parseJson(execution.input);
    if (!input || typeof input.jobId !== 'string') return null;
    return { jobId: input.jobId, accountId: typeof input.accountId === 'string' ? input.accountId : null, abandoned: true };
  }
  if (typeof root.jobId !== 'string') return null;
  return { jobId: root.jobId, accountId: typeof root.accountId === 'string' ? root.accountId : null, abandoned: root.abandoned === true };
}

export function handler(event: unknown, context?: Partial<Context>): Promise<FinaliseResult | { result: 'ignored' }> {
  const request = parseFinaliseEvent(event);
  return withInvocationLog(context, { jobId: request?.jobId, accountId: request?.accountId }, () => withMetricsFlushed(() => finalise(request)));
}

async function finalise(request: FinaliseRequest | null): Promise<FinaliseResult | { result: 'ignored' }> {
  const startedAt = Date.now();
  if (!request) {
    logInvocation({ worker: 'finalise', result: 'ignored', durationMs: elapsedSince(startedAt) });
    return { result: 'ignored' };
  }
  const log = (result: string, outcome?: string | null, error?: unknown): void =>
    logInvocation({
      worker: 'finalise',
      jobId: request.jobId,
      accountId: request.accountId,
      result: request.abandoned ? `${result} (abandoned execution)` : result,
      outcome,
      durationMs: elapsedSince(startedAt),
      ...(error === undefined ? {} : { error }),
    });
  try {
    const outcome = await finaliseJob(services(), request.jobId);
    // Counted by the one call that made the job terminal, never by a retry or a republish.
    if (outcome.result === 'finalised') recordMetric('jobsFinished', { status: outcome.status, outcome: outcome.outcome ?? 'none' });
    log(outcome.result, outcome.result === 'finalised' ? outcome.outcome : undefined);
    return outcome;
  } catch (err) {
    log('failed', undefined, err);
    throw err;
  }
}
