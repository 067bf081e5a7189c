/**
 * The middleware of the public routes (health, openapi): logs and traces,
 * request id and error mapping only. Kept apart from api-middleware, which reaches the service
 * adapters, so these handlers' bundles stay small and start fast.
 */
import type { MiddlewareObj } from '@middy/core';
import type { ApiEvent, ApiResult } from './http';
import { httpErrors } from './http-errors';
import { observability } from './observability';
import { requestId } from './request-id';

export function publicMiddleware(): MiddlewareObj<ApiEvent, ApiResult>[] {
  return [...observability(), requestId(), httpErrors()];
}
