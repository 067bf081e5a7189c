/**
 * How long a sync request may still wait for its job (docs/api.md §11 rule 9).
 *
 * The wait (SYNC_WAIT_MS, 27 s) counts from the request's arrival at the
 * gateway, not from the moment the job exists: a cold start or a large base64
 * body spent before the job was created comes off the wait, so the answer still
 * leaves before API Gateway gives up on the integration at 29 s and answers 504
 * without the job, which the client could then never poll. Inside Lambda the
 * wait also ends early enough for the job to be presented and sent before the
 * function's own timeout.
 */

/** Kept back from the function's remaining time to present the job and answer. */
export const ANSWER_MARGIN_MS = 1500;

export interface SyncWaitInput {
  /** The configured wait, counted from arrival. */
  waitMs: number;
  /** When the request reached the gateway (requestContext.requestTimeEpoch), epoch ms; absent outside API Gateway. */
  arrivedAtMs?: number | undefined;
  nowMs: number;
  /** The Lambda function's remaining time, when it runs in one. */
  remainingMs?: number | undefined;
}

/** Milliseconds the request may still wait for its job; 0 when it must answer at once. */
export function syncWaitLeft(o: SyncWaitInput): number {
  // An arrival in the future (clock skew) or missing counts as now.
  const sinceArrival = o.arrivedAtMs !== undefined && Number.isFinite(o.arrivedAtMs) && o.arrivedAtMs <= o.nowMs ? o.nowMs - o.arrivedAtMs : 0;
  let left = o.waitMs - sinceArrival;
  if (o.remainingMs !== undefined && Number.isFinite(o.remainingMs)) left = Math.min(left, o.remainingMs - ANSWER_MARGIN_MS);
  return Math.max(0, left);
}
