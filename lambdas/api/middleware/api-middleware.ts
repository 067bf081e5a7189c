/**
 * The middleware every handler uses, in the one order that works:
 *
 *   observability → request-id → caller → json-body → idempotency → (handler) → http-errors
 *
 * middy runs `before` in this order and `after`/`onError` in reverse, so errors
 * become responses first (http-errors), idempotency then keeps or releases its
 * claim seeing the final status, the request id is stamped on whatever goes
 * out, and the log keys are dropped and the trace segment closed last. Handlers: `middy(core).use(apiMiddleware())`, or
 * `apiMiddleware({ post: true })` (or `{ put: true }`); the public routes use publicMiddleware
 * (request id and errors only).
 */
import type { MiddlewareObj } from '@middy/core';
import { services } from '../../platform/services';
import { caller } from './caller';
import type { ApiEvent, ApiResult } from './http';
import { httpErrors } from './http-errors';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { observability } from './observability';
import { requestId } from './request-id';

export interface RouteMiddlewareOptions {
  /** POST routes: JSON body and Idempotency-Key. */
  post?: boolean;
  /** PUT routes: JSON body (a PUT is idempotent by itself: no Idempotency-Key). */
  put?: boolean;
}

/**
 * For the routes behind the authoriser (routes.ts says which: `auth: true`);
 * the caller middleware refuses a request that did not pass it.
 */
export function apiMiddleware(options: RouteMiddlewareOptions = {}): MiddlewareObj<ApiEvent, ApiResult>[] {
  const stack: MiddlewareObj<ApiEvent, ApiResult>[] = [...observability(), requestId(), caller()];
  if (options.post || options.put) stack.push(jsonBody({ maxBodyBytes: () => services().config.maxBodyBytes }));
  if (options.post) stack.push(idempotency(() => services().idempotency));
  stack.push(httpErrors());
  return stack;
}
