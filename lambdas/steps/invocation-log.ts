/**
 * One structured log line per worker invocation, so CloudWatch Logs Insights (and
 * the local runtime's console) can follow a job through the pipeline by jobId
 * without reading free text. Nothing here may carry file contents or secrets.
 */
export interface InvocationLogLine {
  worker: string;
  jobId: string;
  taskId?: string;
  stepId?: string;
  /** What the invocation did: done, skipped, error, already-terminal, missing… */
  result: string;
  outcome?: string | null;
  durationMs: number;
  /** Name of an unexpected error, never its stack. */
  error?: string;
}

export function logInvocation(line: InvocationLogLine): void {
  console.log(JSON.stringify({ level: line.error ? 'error' : 'info', ...line }));
}

/** Milliseconds since `startedAt` (a Date.now() value). */
export const elapsedSince = (startedAt: number): number => Math.max(0, Date.now() - startedAt);
