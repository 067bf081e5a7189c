/**
 * The webhook caller (entry of WORKERS.webhookCaller). Three invocations:
 *
 * - the EventBridge rule's job-terminal event (JOB_TERMINAL_PATTERN): attempt 1;
 *   on failure it starts the retry state machine through the WebhookScheduler;
 * - the EventBridge rule's job-decision event (JOB_DECISION_PATTERN): the
 *   `job.approved` / `job.changes_requested` webhook (decision-webhook.ts);
 * - the retry state machine's Deliver state, `{ mode: 'retry', jobId, accountId,
 *   attempt }`: that attempt; it returns `{ jobId, accountId, done, attempt,
 *   delaySeconds }`, which the Choice and Wait states read.
 */
import '../platform/polyfills';
import type { Context } from 'aws-lambda';
import { JOB_DECISION_DETAIL_TYPE } from '../../step-definitions/events';
import type { JobDecisionEvent, JobTerminalEvent } from '../domain/ports';
import { buildWebhookPayload } from '../domain/present/webhook-payload';
import { services } from '../platform/services';
import { withMetricsFlushed } from '../platform/observability/metrics';
import { deliverDecisionWebhook } from './decision-webhook';
import { runWebhookAttempt, type AttemptResult, type WebhookDeps } from './webhook-attempt';
import { asError, logger, type CorrelationKeys } from '../observability/logger';
import { withInvocationLog } from '../observability/invocation';

export interface WebhookRetryEvent {
  mode: 'retry';
  jobId: string;
  accountId: string;
  attempt: number;
}

/** What the retry state machine reads after each attempt. */
export interface WebhookRetryOutput {
  jobId: string;
  accountId: string;
  done: boolean;
  /** The next attempt to make (when not done). */
  attempt: number;
  delaySeconds: number;
}

interface TerminalEventEnvelope {
  source?: string;
  'detail-type'?: string;
  detail: JobTerminalEvent;
}

function deps(): WebhookDeps {
  const { jobs, keys, clock, config } = services();
  return { jobs, keys, clock, config, buildPayload: buildWebhookPayload };
}

const isDecisionEvent = (e: unknown): e is { 'detail-type': string; detail: JobDecisionEvent } =>
  typeof e === 'object' && e !== null && (e as TerminalEventEnvelope)['detail-type'] === JOB_DECISION_DETAIL_TYPE && typeof (e as TerminalEventEnvelope).detail?.jobId === 'string';

const isRetryEvent = (e: unknown): e is WebhookRetryEvent =>
  typeof e === 'object' && e !== null && (e as WebhookRetryEvent).mode === 'retry' && typeof (e as WebhookRetryEvent).jobId === 'string';

const isTerminalEvent = (e: unknown): e is TerminalEventEnvelope =>
  typeof e === 'object' && e !== null && typeof (e as TerminalEventEnvelope).detail?.jobId === 'string';

async function onRetry(event: WebhookRetryEvent): Promise<WebhookRetryOutput> {
  const attempt = Number.isInteger(event.attempt) && event.attempt >= 1 ? event.attempt : 1;
  const result: AttemptResult = await runWebhookAttempt(deps(), event.jobId, attempt);
  logAttempt(attempt, result);
  return result.done
    ? { jobId: event.jobId, accountId: event.accountId, done: true, attempt, delaySeconds: 0 }
    : { jobId: event.jobId, accountId: event.accountId, done: false, attempt: result.nextAttempt, delaySeconds: result.delaySeconds };
}

async function onTerminal(event: TerminalEventEnvelope): Promise<void> {
  const { jobId, accountId } = event.detail;
  const result = await runWebhookAttempt(deps(), jobId, 1);
  logAttempt(1, result);
  if (!result.done) {
    await services().webhookScheduler.scheduleRetry({ jobId, accountId, attempt: result.nextAttempt, delaySeconds: result.delaySeconds });
  }
}

/** A given-up delivery is a warning: the customer's endpoint never took the job's webhook. */
function logAttempt(attempt: number, result: AttemptResult): void {
  const line = { message: 'webhook attempt', attempt, ...result };
  if (result.done && result.why === 'given_up') logger.warn(line);
  else logger.info(line);
}

/** The job an event is about, for the invocation's log lines. */
function jobKeysOf(event: unknown): CorrelationKeys {
  if (isRetryEvent(event)) return { jobId: event.jobId, accountId: event.accountId };
  if (isDecisionEvent(event) || isTerminalEvent(event)) return { jobId: event.detail.jobId, accountId: event.detail.accountId };
  return {};
}

async function call(event: unknown): Promise<WebhookRetryOutput | void> {
  if (isRetryEvent(event)) return onRetry(event);
  if (isDecisionEvent(event)) {
    const result = await deliverDecisionWebhook(deps(), event.detail.jobId);
    logger.info({ message: 'decision webhook', decision: event.detail.decision, result });
    return;
  }
  if (isTerminalEvent(event)) return onTerminal(event);
  // Lenient on what we cannot read: log it and finish, so a stray event is not retried forever.
  // Only its shape is logged: an unknown event may carry anything.
  logger.warn({ message: 'ignored an event that is neither a job-terminal event nor a retry', eventKeys: typeof event === 'object' && event !== null ? Object.keys(event) : typeof event });
}

export function handler(event: unknown, context?: Partial<Context>): Promise<WebhookRetryOutput | void> {
  return withInvocationLog(context, jobKeysOf(event), async () => {
    try {
      return await withMetricsFlushed(() => call(event));
    } catch (err) {
      // Thrown for the caller's retry (a busy attempt, a job not terminal yet, a store failure): logged with its reason here.
      logger.error({ message: 'webhook caller failed' }, asError(err));
      throw err;
    }
  });
}
