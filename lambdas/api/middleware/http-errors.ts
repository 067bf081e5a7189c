/**
 * The one place errors become HTTP responses (docs/api.md §7): an ApiError keeps its
 * code, message, param and headers; a zod error is a 400 `validation_error`
 * naming the field; anything else is a 500 `internal_error` that says nothing
 * about internals and is logged with the request id so it can be found.
 */
import type { MiddlewareObj } from '@middy/core';
import { z } from 'zod';
import { ApiError, ERROR_CODES, errorBody } from '../../domain/errors';
import { json, type ApiEvent, type ApiResult } from './http';
import { requestIdOf } from './request-id';
import { describeZodError } from './validation-issue';
import { asError, logger } from '../../observability/logger';

export function errorResponse(error: unknown, requestId: string): ApiResult {
  if (error instanceof ApiError) {
    return json(error.status, errorBody(error.code, error.message, requestId, error.param), error.headers);
  }
  if (error instanceof z.core.$ZodError) {
    const problem = describeZodError(error);
    return json(400, errorBody('validation_error', problem.text, requestId, problem.param));
  }
  logInternalError(error, requestId);
  return json(500, errorBody('internal_error', ERROR_CODES.internal_error.title, requestId));
}

function logInternalError(error: unknown, requestId: string): void {
  logger.error({ message: 'unhandled error', requestId }, asError(error));
}

/**
 * Use last: its `onError` then runs first, so every other middleware's
 * `onError` (idempotency deciding whether to keep or release its claim, the
 * request id stamp) sees the final error response.
 */
export function httpErrors(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    name: 'http-errors',
    onError: (request) => {
      // Returning nothing keeps the onError chain going; middy answers with request.response.
      request.response = errorResponse(request.error, requestIdOf(request.event));
    },
  };
}
