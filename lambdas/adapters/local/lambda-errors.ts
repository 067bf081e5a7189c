/**
 * Errors shaped the way Step Functions sees a failed Lambda: a Task whose
 * Resource is a function ARN fails with `Error` = the function's errorType and
 * `Cause` = the JSON the Lambda runtime reports ({ errorType, errorMessage,
 * trace }). aws-local-stepfunctions takes a thrown error's `name` as `Error` and
 * its `message` as `Cause`, so throwing one of these from a local Task handler
 * gives the ASL Catch, and the failure recorder behind it, what the cloud gives.
 */

/** Names the Lambda service itself gives to invocations it ends. */
export const LAMBDA_RUNTIME_ERRORS = {
  timeout: 'Sandbox.Timedout',
  exit: 'Runtime.ExitError',
  outOfMemory: 'Runtime.OutOfMemory',
} as const;

export interface LambdaErrorPayload {
  errorType: string;
  errorMessage: string;
  trace?: string[];
}

export class LambdaInvocationError extends Error {
  readonly payload: LambdaErrorPayload;
  constructor(payload: LambdaErrorPayload) {
    super(JSON.stringify(payload));
    this.name = payload.errorType;
    this.payload = payload;
  }
}

/** What the Node.js Lambda runtime reports for an error a handler threw. */
export function payloadOf(err: unknown): LambdaErrorPayload {
  if (err instanceof Error) {
    return {
      errorType: err.name || 'Error',
      errorMessage: err.message,
      trace: (err.stack ?? '').split('\n').filter((l) => l.trim() !== ''),
    };
  }
  return { errorType: 'Error', errorMessage: typeof err === 'string' ? err : JSON.stringify(err) ?? String(err) };
}

export const asLambdaError = (err: unknown): LambdaInvocationError =>
  err instanceof LambdaInvocationError ? err : new LambdaInvocationError(payloadOf(err));

export function timedOut(requestId: string, seconds: number): LambdaInvocationError {
  return new LambdaInvocationError({
    errorType: LAMBDA_RUNTIME_ERRORS.timeout,
    errorMessage: `${new Date().toISOString()} ${requestId} Task timed out after ${seconds.toFixed(2)} seconds`,
  });
}

export function exited(requestId: string, detail: string): LambdaInvocationError {
  return new LambdaInvocationError({
    errorType: LAMBDA_RUNTIME_ERRORS.exit,
    errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: ${detail}`,
  });
}

export function outOfMemory(requestId: string): LambdaInvocationError {
  return new LambdaInvocationError({
    errorType: LAMBDA_RUNTIME_ERRORS.outOfMemory,
    errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: signal: killed`,
  });
}
