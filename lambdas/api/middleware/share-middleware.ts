/**
 * The middleware of the share link's public routes (GET /share, POST
 * /share/decision): no API key (the token in the Share-Token header is checked
 * by the use case, and never logged), hence no caller and no Idempotency-Key, which is kept per
 * account; a POST's JSON body is parsed and checked as on every other route.
 */
import type { MiddlewareObj } from '@middy/core';
import { services } from '../../platform/services';
import type { ApiEvent, ApiResult } from './http';
import { httpErrors } from './http-errors';
import { jsonBody } from './json-body';
import { observability } from './observability';
import { requestId } from './request-id';

export function shareMiddleware(options: { post?: boolean } = {}): MiddlewareObj<ApiEvent, ApiResult>[] {
  const stack: MiddlewareObj<ApiEvent, ApiResult>[] = [...observability(), requestId()];
  if (options.post) stack.push(jsonBody({ maxBodyBytes: () => services().config.maxBodyBytes }));
  stack.push(httpErrors());
  return stack;
}
