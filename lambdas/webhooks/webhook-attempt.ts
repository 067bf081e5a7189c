/**
 * One attempt at delivering a job's completion webhook, and what comes next.
 *
 * Deliveries are recorded on the job before anything else happens, and the
 * record is what makes repeats harmless: EventBridge and Step Functions may run
 * the same attempt twice (at-least-once delivery, a Lambda retry after a timeout),
 * so an attempt already recorded is not sent again, a job already delivered is
 * left alone, and a run that finds later attempts recorded than its own stops,
 * because another run is ahead of it.
 *
 * Two copies of one attempt running at the same moment would both find it
 * unrecorded, so before posting a run claims the attempt with a conditional
 * write (JobStore.claimWebhookAttempt). The copy that loses does not post: it
 * fails with WebhookAttemptBusyError, and its retry (Lambda's for the first
 * attempt, the state machine's for the others) finds the delivery recorded. A
 * claim lapses CLAIM_MARGIN_MS after the request's own timeout, so a run that
 * died before recording does not keep the attempt from ever being made.
 */
import type { JobGraph, WebhookDelivery } from '../domain/model';
import { isTerminal } from '../domain/model';
import type { Clock, JobStore, KeyStore } from '../domain/ports';
import { iso } from '../domain/ids';
import type { NetworkMode } from '../platform/config';
import { guardedRequest, RequestTimeoutError, UrlNotAllowedError } from '../platform/net/guarded-request';
import { recordMetric } from '../platform/observability/metrics';
import { delayAfterFailure, maxAttempts } from './retry-schedule';
import { webhookHeaders, webhookMessageId } from './signature';

export interface WebhookDeps {
  jobs: JobStore;
  keys: KeyStore;
  clock: Clock;
  config: { networkMode: NetworkMode; reservedPorts?: readonly number[]; webhookTimeoutMs: number; webhookRetryScheduleSeconds: number[] };
  /** The body for a job (the contract's webhook payload). */
  buildPayload: (graph: JobGraph) => unknown;
  random?: () => number;
}

export type AttemptResult =
  /** Nothing more to do: delivered, given up, no webhook, or another run is ahead. */
  | { done: true; why: 'delivered' | 'given_up' | 'no_webhook' | 'superseded' }
  | { done: false; nextAttempt: number; delaySeconds: number };

/** How long a claim outlives the webhook request's timeout: time to record the delivery. */
export const CLAIM_MARGIN_MS = 30_000;

/** Another run is making this attempt right now; the caller retries later and then finds it recorded. */
export class WebhookAttemptBusyError extends Error {
  constructor(jobId: string, attempt: number) {
    super(`attempt ${attempt} of job ${jobId}'s webhook is being made by another run`);
    this.name = 'WebhookAttemptBusyError';
  }
}

/** The job is not terminal yet (a read that lags the write); the caller retries later. */
export class JobNotTerminalError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is not terminal yet; its webhook waits`);
    this.name = 'JobNotTerminalError';
  }
}

const isSuccess = (d: WebhookDelivery): boolean => d.error === null && d.statusCode !== null && d.statusCode >= 200 && d.statusCode < 300;

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof UrlNotAllowedError) return `the URL is not allowed: ${err.reason}`;
  if (err instanceof RequestTimeoutError) return `no response within ${timeoutMs} ms`;
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message || String(code ?? 'request failed');
  }
  return 'request failed';
}

/** What one signed POST to a job's webhook came to; a receiver's failure is reported, never thrown. */
export interface WebhookSend {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * POSTs `body` to the job's webhook once, signed with its account's secret under
 * `msgId` (§9): the completion attempts here and the decision webhook
 * (decision-webhook.ts) are sent alike.
 */
export async function sendSignedWebhook(
  deps: Pick<WebhookDeps, 'keys' | 'clock' | 'config'>,
  job: JobGraph['job'],
  msgId: string,
  body: string,
): Promise<WebhookSend> {
  const target = job.webhook!;
  const account = await deps.keys.getAccount(job.accountId);
  if (!account) throw new Error(`account ${job.accountId} of job ${job.id} has no webhook secret`);

  const at = deps.clock.now();
  const headers = webhookHeaders({
    webhookSecret: account.webhookSecret,
    msgId,
    timestampSeconds: Math.floor(at.getTime() / 1000),
    body,
    requested: target.headers,
  });
  const timeoutMs = deps.config.webhookTimeoutMs;
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await guardedRequest(target.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxRedirects: 0,
      mode: deps.config.networkMode,
      reservedPorts: deps.config.reservedPorts,
    });
    statusCode = res.statusCode;
    // The answer is the status; the body is read only to let the connection finish.
    res.body.on('error', () => {});
    res.body.resume();
    if (statusCode < 200 || statusCode >= 300) error = `the receiver answered HTTP ${statusCode}`;
  } catch (err) {
    error = describeFailure(err, timeoutMs);
  }
  recordMetric('webhookAttempts', { result: error === null ? 'delivered' : 'failed' });
  return { at, statusCode, durationMs: Math.round(performance.now() - started), error };
}

/** POSTs the signed payload once; never throws for a receiver's failure, only reports it. */
async function post(deps: WebhookDeps, graph: JobGraph, attempt: number, last: boolean): Promise<WebhookDelivery> {
  const { job } = graph;
  const sent = await sendSignedWebhook(deps, job, webhookMessageId(job.id), JSON.stringify(deps.buildPayload(graph)));
  let error = sent.error;
  if (error !== null && last) error += `; given up after ${attempt} attempt${attempt === 1 ? '' : 's'}`;
  const delivery: WebhookDelivery = { attempt, at: iso(sent.at), statusCode: sent.statusCode, durationMs: sent.durationMs, error };
  await deps.jobs.appendWebhookDelivery(job.id, delivery);
  return delivery;
}

/** Makes attempt `attempt` of the job's webhook (unless already made) and says what follows. */
export async function runWebhookAttempt(deps: WebhookDeps, jobId: string, attempt: number): Promise<AttemptResult> {
  const graph = await deps.jobs.getGraphById(jobId);
  if (!graph || !graph.job.webhook) return { done: true, why: 'no_webhook' };
  if (!isTerminal(graph.job.status)) throw new JobNotTerminalError(jobId);

  const schedule = deps.config.webhookRetryScheduleSeconds;
  const limit = maxAttempts(schedule);
  const deliveries = graph.job.webhook.deliveries ?? [];
  if (deliveries.some(isSuccess)) return { done: true, why: 'delivered' };
  if (deliveries.some((d) => d.attempt > attempt)) return { done: true, why: 'superseded' };
  if (attempt > limit) return { done: true, why: 'given_up' };

  const recorded = deliveries.find((d) => d.attempt === attempt);
  if (!recorded) {
    const now = deps.clock.now().getTime();
    if (!(await deps.jobs.claimWebhookAttempt(jobId, attempt, now, now + deps.config.webhookTimeoutMs + CLAIM_MARGIN_MS))) {
      const claim = (await deps.jobs.getGraphById(jobId))?.job.webhook?.claim;
      if (claim && claim.attempt > attempt) return { done: true, why: 'superseded' };
      throw new WebhookAttemptBusyError(jobId, attempt);
    }
  }
  const delivery = recorded ?? (await post(deps, graph, attempt, attempt >= limit));
  if (isSuccess(delivery)) return { done: true, why: 'delivered' };

  const delaySeconds = delayAfterFailure(attempt, schedule, deps.random);
  if (delaySeconds === null) {
    // Counted by the run that made the last attempt, not by a repeat that found it recorded.
    if (!recorded) recordMetric('webhookGiveUps', {});
    return { done: true, why: 'given_up' };
  }
  return { done: false, nextAttempt: attempt + 1, delaySeconds };
}
