/**
 * What the API's middy stack does with Powertools' `injectLambdaContext` and
 * `captureLambdaHandler` (lambdas/api/middleware/observability.ts), for the
 * workers, whose handlers are plain functions: one invocation's log context
 * and trace segment around `run`.
 *
 * - The logger gets the Lambda context (function name, request id, cold start)
 *   and the invocation's correlation keys, and loses them when it ends: a warm
 *   function never writes one job's ids on the next one's lines. Keys left by
 *   an invocation that never reached its end (a timeout) are dropped at the start.
 * - When tracing is on, the work runs in a `## <function>` subsegment of the
 *   Lambda's segment, annotated with cold start and service, and an error is
 *   recorded on it (Powertools' manual instrumentation, as its docs show it;
 *   no response is recorded).
 *
 * Workers are not wrapped in middy: middy would answer a Lambda timeout with
 * its own error just before it, where the state machine's Catch and
 * record-failure read the error Lambda gives (Sandbox.Timedout).
 */
import type { Context } from 'aws-lambda';
import { appendCorrelationKeys, logger, type CorrelationKeys } from './logger';
import { tracer } from './tracer';

export async function withInvocationLog<T>(context: Partial<Context> | undefined, keys: CorrelationKeys, run: () => Promise<T>): Promise<T> {
  logger.resetKeys();
  if (typeof context?.awsRequestId === 'string') logger.addContext(context as Context);
  appendCorrelationKeys(keys);
  try {
    return await inHandlerSegment(context?.functionName ?? 'handler', run);
  } finally {
    logger.resetKeys();
  }
}

async function inHandlerSegment<T>(name: string, run: () => Promise<T>): Promise<T> {
  const segment = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (!segment) return run();
  const subsegment = segment.addNewSubsegment(`## ${name}`);
  tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  try {
    return await run();
  } catch (err) {
    tracer.addErrorAsMetadata(err as Error);
    throw err;
  } finally {
    subsegment.close();
    tracer.setSegment(segment);
  }
}
