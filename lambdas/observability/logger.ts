/**
 * The one logger (Powertools for AWS Lambda's Logger): every handler, worker,
 * the webhook caller and the local runtime write through it, one JSON object a
 * line, with the same keys everywhere. Nothing else in lambdas/ or local/ writes
 * to the console (test/unit/architecture/no-console.test.ts).
 *
 * The keys of a line (README, "Logs and traces"):
 * - always: `level`, `message`, `timestamp`, `service` (`proofline`, or
 *   POWERTOOLS_SERVICE_NAME);
 * - in a Lambda invocation (Powertools' names): `cold_start`, `function_name`,
 *   `function_arn`, `function_memory_size`, `function_request_id` (the
 *   invocation's id), `xray_trace_id` when traced;
 * - where known, the correlation keys (CorrelationKeys): `requestId` (the API
 *   request's id, the `x-request-id` a client sees), `accountId`, `jobId`,
 *   `taskId`, `stepId`;
 * - an error: `error` with its `name`, `message`, `stack` and `location`, at
 *   level `error`.
 *
 * The correlation keys are per invocation: added with `appendCorrelationKeys`
 * where they become known, and dropped when the invocation ends (the API
 * middleware, `withInvocationLog` for workers), so a warm function never writes
 * one job's ids on the next one's lines. Every value passes `redactLogValue`
 * on its way out (redaction.ts).
 *
 * This module imports nothing of Proofline's, so every layer may log through it
 * (the domain's use cases included) without importing upwards.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { redactLogValue } from './redaction';
import { SERVICE_NAME } from './service-name';

/** The ids that tie a line to a request and a job; a job's id finds every line of it. */
export interface CorrelationKeys {
  requestId?: string;
  accountId?: string | null;
  jobId?: string;
  taskId?: string;
  stepId?: string;
}

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME,
  logRecordOrder: ['level', 'message', 'timestamp', 'service', 'requestId', 'accountId', 'jobId', 'taskId', 'stepId'],
  jsonReplacerFn: (key, value) => redactLogValue(key, value) as never,
});

/** Adds the ids known so far to every further line of this invocation; empty values are left out. */
export function appendCorrelationKeys(keys: CorrelationKeys): void {
  const known = Object.fromEntries(Object.entries(keys).filter(([, value]) => typeof value === 'string' && value !== ''));
  if (Object.keys(known).length > 0) logger.appendKeys(known);
}

/** An Error to log under `error`: thrown non-errors (a string, an object) become one. */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(typeof thrown === 'string' ? thrown : JSON.stringify(thrown) ?? String(thrown));
}

/**
 * How the local runtime's parts (and the local adapters) report what happens
 * outside any one invocation: `(message, error?, fields?)`. With an error the
 * line is at level `error`, with its reason and stack; without, at `info`.
 */
export type ComponentLog = (message: string, error?: unknown, fields?: Record<string, unknown>) => void;

/** The ComponentLog of one part of the local runtime (`worker-pool`, `orchestrator` …), named in `component`. */
export function componentLog(component: string): ComponentLog {
  return (message, error, fields) => {
    if (error === undefined) logger.info({ message, component, ...fields });
    else logger.error({ message, component, ...fields }, asError(error));
  };
}
