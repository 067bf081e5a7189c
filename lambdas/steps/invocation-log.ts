/**
 * One line per worker invocation through the one logger (lambdas/observability/logger.ts),
 * so CloudWatch Logs Insights (and the local runtime's output) follow a job
 * through the pipeline by jobId. A step or task that ended in error is logged at
 * level `error` with the reason recorded on it and, when something was thrown,
 * the error with its message and stack. Nothing here may carry file contents or
 * secrets.
 */
import { asError, logger, type CorrelationKeys } from '../observability/logger';

export interface InvocationFailure {
  /** The sentence recorded on the step or task. */
  reason?: string;
  /** What was thrown. */
  error?: unknown;
}

export interface InvocationLogLine extends CorrelationKeys, InvocationFailure {
  worker: string;
  /** What the invocation did: done, skipped, error, already-terminal, missing… */
  result: string;
  outcome?: string | null;
  durationMs: number;
}

export function logInvocation(line: InvocationLogLine): void {
  const { error, ...fields } = line;
  const message = `${line.worker} ${line.result}`;
  if (error === undefined && line.reason === undefined) logger.info({ message, ...fields });
  else if (error === undefined) logger.error({ message, ...fields });
  else logger.error({ message, ...fields }, asError(error));
}

/** Milliseconds since `startedAt` (a Date.now() value). */
export const elapsedSince = (startedAt: number): number => Math.max(0, Date.now() - startedAt);
