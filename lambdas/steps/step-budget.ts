/**
 * The time one step invocation has, split into phases, so that a step always
 * ends with what it has, or with a sentence saying why it has nothing, before
 * the worker's own timeout ends it silently (Lambda's 900 s, or the local
 * worker pool's limit) and its finished work is lost.
 *
 * The whole is what the invocation has left when it starts: Lambda's
 * `context.getRemainingTimeInMillis()` (the local runtime's worker threads give
 * the same, from the pool's timeout), else the worker's configured timeout.
 * From its end two reserves are kept back:
 *
 * - the work (downloading the input, the engine, extras such as proof images)
 *   must be done by `workDeadline`, leaving OUTPUT_RESERVE_SHARE of the whole
 *   (at most OUTPUT_RESERVE_MAX_MS) for storing the outputs;
 * - storing the outputs must be done by `storeDeadline`, leaving
 *   RECORDS_RESERVE_SHARE (between RECORDS_RESERVE_MIN_MS and
 *   RECORDS_RESERVE_MAX_MS) for writing the step's records and answering.
 *
 * `within()` runs one phase against a deadline: past it the phase's promise is
 * abandoned (its result ignored) and the caller is told so; the phase itself
 * must be stoppable by other means (an engine thread ended at its own limit)
 * for its work to stop too.
 */

/** Share of the invocation kept for storing outputs and writing records. */
export const OUTPUT_RESERVE_SHARE = 0.2;
export const OUTPUT_RESERVE_MAX_MS = 90_000;
/**
 * Kept for writing the step's records once the outputs are stored: a share of
 * the whole, at least a second (a few writes take about as long whatever the
 * budget), at most 15 s, and never more than a quarter of a short budget.
 */
export const RECORDS_RESERVE_SHARE = 0.05;
export const RECORDS_RESERVE_MIN_MS = 1_000;
export const RECORDS_RESERVE_MAX_MS = 15_000;

/** What a step worker learns of the Lambda context (the local worker threads give the same). */
export interface InvocationContext {
  getRemainingTimeInMillis?: () => number;
}

export interface StepBudget {
  /** The invocation's whole time, ms. */
  totalMs: number;
  /** The time for the work, from the start to `workDeadline`, ms. */
  workMs: number;
  /** Epoch ms: the work must be done by then. */
  workDeadline: number;
  /** Epoch ms: the outputs must be stored by then. */
  storeDeadline: number;
  now: () => number;
  /** Time left for the work, ms (0 when past). */
  workLeftMs(): number;
  /** Time left for storing outputs, ms (0 when past). */
  storeLeftMs(): number;
}

export function stepBudget(totalMs: number, now: () => number = Date.now): StepBudget {
  const start = now();
  const total = Math.max(0, totalMs);
  const records = Math.min(RECORDS_RESERVE_MAX_MS, Math.max(RECORDS_RESERVE_MIN_MS, total * RECORDS_RESERVE_SHARE), total / 4);
  const outputs = Math.min(OUTPUT_RESERVE_MAX_MS, total * OUTPUT_RESERVE_SHARE);
  const storeDeadline = start + total - records;
  const workDeadline = storeDeadline - outputs;
  return {
    totalMs: total,
    workMs: Math.max(0, workDeadline - start),
    workDeadline,
    storeDeadline,
    now,
    workLeftMs: () => Math.max(0, workDeadline - now()),
    storeLeftMs: () => Math.max(0, storeDeadline - now()),
  };
}

/** The invocation's budget: from the context's remaining time, else the worker's timeout. */
export function invocationBudget(context: InvocationContext | undefined, workerTimeoutMs: number, now: () => number = Date.now): StepBudget {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  return stepBudget(typeof remaining === 'number' && Number.isFinite(remaining) ? remaining : workerTimeoutMs, now);
}

export type Within<T> = { done: true; value: T } | { done: false };

/** How long before the end of its time a renderer is told to stop, so it can end its threads and return what it has. */
const RENDER_STOP_MARGIN_MS = 5_000;

/**
 * The deadline (epoch ms, wall clock: a renderer's threads know no other) for
 * a renderer given `ms`: a little before their end (at most a quarter of
 * them), so it stops itself and returns what it rendered in time.
 */
export function renderDeadline(ms: number): number {
  return Date.now() + ms - Math.min(RENDER_STOP_MARGIN_MS, ms / 4);
}

/**
 * Waits for `work` until `deadline` (epoch ms). Past it, resolves `{ done: false }`
 * and ignores whatever `work` does afterwards (a later rejection included).
 */
export async function within<T>(work: Promise<T>, deadline: number, now: () => number = Date.now): Promise<Within<T>> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, deadline - now()));
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work.then((value) => ({ done: true as const, value })), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whole seconds; below ten seconds up to tenths (tests use short budgets). */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? String(Math.round(s)) : String(Number(s.toFixed(1)));
}
