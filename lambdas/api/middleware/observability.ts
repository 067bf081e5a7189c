/**
 * The logs and traces of an API invocation (lambdas/observability/): Powertools'
 * `injectLambdaContext` (the Lambda context on every line, the invocation's keys
 * dropped when it ends) and `captureLambdaHandler` (the handler's trace segment,
 * without its response, which carries presigned URLs and share tokens), then
 * the request's own correlation keys: its id (`requestId`, the `x-request-id`
 * the client sees) and, on `/jobs/{id}…` routes, the job's id. The caller
 * middleware adds `accountId` once the caller is known, and job creation the
 * new job's id.
 *
 * Keys are dropped at the start too: an invocation answered early by a `before`
 * middleware (an idempotent replay) skips every `after`, Powertools' included.
 */
import type { MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { appendCorrelationKeys, logger } from '../../observability/logger';
import { HANDLER_TRACE_OPTIONS, tracer } from '../../observability/tracer';
import type { ApiEvent, ApiResult } from './http';
import { requestIdOf } from './request-id';

const JOB_ID_RE = /^job_[0-9A-Za-z]+$/;

function requestLogKeys(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    name: 'request-log-keys',
    before: (request) => {
      logger.resetKeys();
      const id = request.event.pathParameters?.id;
      appendCorrelationKeys({ requestId: requestIdOf(request.event), jobId: id && JOB_ID_RE.test(id) ? id : undefined });
    },
  };
}

/** Use first: its `after` and `onError` then run last, once the response is final. */
export function observability(): MiddlewareObj<ApiEvent, ApiResult>[] {
  return [
    injectLambdaContext(logger, { resetKeys: true }) as MiddlewareObj<ApiEvent, ApiResult>,
    captureLambdaHandler(tracer, HANDLER_TRACE_OPTIONS) as MiddlewareObj<ApiEvent, ApiResult>,
    requestLogKeys(),
  ];
}
