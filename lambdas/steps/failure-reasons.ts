/**
 * The sentences a task's `reason` carries when something failed. Customers read
 * them (docs/api.md §2: `reason` says why), so they name what happened in plain words
 * and never include stack traces, file paths or internal messages; the error's
 * name is the one technical detail kept, because support needs it.
 */
import type { StepType } from '../domain/model';
import { STEP_CATALOGUE } from '../../step-definitions/catalogue';
import { WORKERS } from '../../step-definitions/workers';

/** The `$.failure` a Step Functions Catch stores: `{ Error, Cause }`. */
export interface StateFailure {
  Error?: unknown;
  Cause?: unknown;
}

/** What ran: a step type, or the source retrieval before the steps. */
export type FailedWork = StepType | 'ingest';

const TIMEOUT_ERRORS = new Set(['States.Timeout', 'Sandbox.Timedout', 'Lambda.Timeout']);
const OUT_OF_MEMORY_ERRORS = new Set(['Runtime.OutOfMemory']);

/** An error name safe to show: identifier-like and short, else a generic one. */
export function errorName(err: unknown): string {
  const raw = typeof err === 'object' && err !== null && 'name' in err ? (err as { name: unknown }).name : undefined;
  return safeName(raw);
}

function safeName(raw: unknown): string {
  return typeof raw === 'string' && /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(raw) ? raw : 'Error';
}

/** The reason of a step that threw something other than UnprocessableFileError. */
export function unexpectedStepReason(type: StepType, err: unknown): string {
  return `The ${type} step failed unexpectedly (${errorName(err)}).`;
}

/** The reason of a source retrieval that threw something unexpected. */
export function unexpectedIngestReason(err: unknown): string {
  return `The source could not be retrieved because of an internal error (${errorName(err)}).`;
}

/**
 * Lambda's Cause is usually a JSON string `{ errorMessage, errorType, trace }`;
 * Step Functions' own errors (States.Timeout) and Pass-state failures carry plain text.
 */
export function parseCause(cause: unknown): { errorType: string | null; errorMessage: string | null } {
  if (typeof cause === 'object' && cause !== null) return pick(cause as Record<string, unknown>);
  if (typeof cause !== 'string' || cause.trim() === '') return { errorType: null, errorMessage: null };
  try {
    const parsed: unknown = JSON.parse(cause);
    if (typeof parsed === 'object' && parsed !== null) return pick(parsed as Record<string, unknown>);
  } catch {
    /* plain text */
  }
  return { errorType: null, errorMessage: cause };
}

function pick(o: Record<string, unknown>): { errorType: string | null; errorMessage: string | null } {
  return {
    errorType: typeof o.errorType === 'string' ? o.errorType : null,
    errorMessage: typeof o.errorMessage === 'string' ? o.errorMessage : null,
  };
}

/** The function timeout of the worker that runs this work, in seconds. */
export function timeoutSecondsOf(work: FailedWork): number {
  if (work === 'ingest') return WORKERS.ingest.timeoutSeconds;
  const worker = STEP_CATALOGUE[work]?.worker;
  return worker ? worker.timeoutSeconds : WORKERS.preflight.timeoutSeconds;
}

/**
 * The timeout a failure names ("Task timed out after 900.02 seconds"), rounded;
 * else the worker's configured timeout. The local runtime shortens timeouts in
 * tests, so the message is preferred when it states one.
 */
function timeoutSeconds(message: string | null, work: FailedWork): number {
  const stated = message?.match(/(\d+(?:\.\d+)?)\s*(?:s\b|sec\b|secs\b|seconds?\b)/i);
  if (stated) return Math.max(1, Math.round(Number(stated[1])));
  return timeoutSecondsOf(work);
}

/**
 * The kinds of failure a reason can name, for the StepErrors metric
 * (platform/observability/metric-table.ts): an unreadable file (the customer's),
 * a timeout, running out of memory, a step type without a worker, or anything
 * else (ours).
 */
export const REASON_CLASSES = ['unprocessable', 'timeout', 'out-of-memory', 'no-worker', 'unexpected'] as const;
export type ReasonClass = (typeof REASON_CLASSES)[number];

/** The class of a Step Functions failure: what reasonFromFailure words. */
export function failureClass(failure: StateFailure | null | undefined): ReasonClass {
  const cause = parseCause(failure?.Cause);
  const error = failureError(failure, cause);
  if (TIMEOUT_ERRORS.has(error) || TIMEOUT_ERRORS.has(cause.errorType ?? '')) return 'timeout';
  if (OUT_OF_MEMORY_ERRORS.has(error) || OUT_OF_MEMORY_ERRORS.has(cause.errorType ?? '')) return 'out-of-memory';
  // Workers record these themselves and return normally; one can still arrive here
  // when a worker is killed between throwing and recording.
  if ((error === 'UnprocessableFileError' || cause.errorType === 'UnprocessableFileError') && cause.errorMessage) return 'unprocessable';
  if (error === 'UnknownStepType') return 'no-worker';
  return 'unexpected';
}

function failureError(failure: StateFailure | null | undefined, cause: ReturnType<typeof parseCause>): string {
  return typeof failure?.Error === 'string' && failure.Error !== '' ? failure.Error : (cause.errorType ?? 'Error');
}

/** A reason from a Step Functions failure, for the step (or ingest) that failed. */
export function reasonFromFailure(failure: StateFailure | null | undefined, work: FailedWork): string {
  const cause = parseCause(failure?.Cause);
  const subject = work === 'ingest' ? 'The source could not be retrieved' : `The ${work} step`;
  switch (failureClass(failure)) {
    case 'timeout': {
      const seconds = timeoutSeconds(cause.errorMessage, work);
      return work === 'ingest' ? `${subject} within ${seconds} s.` : `${subject} did not finish within ${seconds} s.`;
    }
    case 'out-of-memory':
      return work === 'ingest' ? `${subject}: retrieving it ran out of memory.` : `${subject} ran out of memory.`;
    case 'unprocessable':
      // Its message is written for customers, so it is the reason as it is.
      return cause.errorMessage ?? '';
    case 'no-worker':
      return `The pipeline has no worker for the ${work} step.`;
    case 'unexpected': {
      const error = safeName(failureError(failure, cause));
      return work === 'ingest' ? `${subject} (${error}).` : `${subject} failed unexpectedly (${error}).`;
    }
  }
}
