/**
 * Every response, success or error, carries `x-request-id` (docs/api.md §7): the API
 * Gateway request id, which is also the `requestId` of error bodies and the key
 * under which failures are logged, so a client's report finds the log line. The
 * same id goes out as `apigw-requestid` too, the name under which the clients
 * written for the original service read it (docs/api.md §11).
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { ApiEvent, ApiResult } from './http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Every header that carries the request id, lower case. */
export const REQUEST_ID_HEADERS: readonly string[] = [REQUEST_ID_HEADER, 'apigw-requestid'];

/** The request id under each of its header names. */
export function requestIdHeaders(requestId: string): Record<string, string> {
  return Object.fromEntries(REQUEST_ID_HEADERS.map((name) => [name, requestId]));
}

/** The request's id; invents one (and stores it on the event) when the event has none. */
export function requestIdOf(event: ApiEvent): string {
  const context = (event.requestContext ??= {} as ApiEvent['requestContext']);
  if (typeof context.requestId !== 'string' || context.requestId === '') context.requestId = randomUUID();
  return context.requestId;
}

export function withRequestId(response: ApiResult, requestId: string): ApiResult {
  response.headers = { ...(response.headers ?? {}), ...requestIdHeaders(requestId) };
  return response;
}

/**
 * Use first: its `after` and `onError` then run last, once the response is
 * final. A `before` middleware that answers early (an idempotent replay) skips
 * every `after`, so it stamps the header itself with `withRequestId`.
 */
export function requestId(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    name: 'request-id',
    before: (request) => {
      requestIdOf(request.event);
    },
    after: (request) => {
      if (request.response) withRequestId(request.response, requestIdOf(request.event));
    },
    onError: (request) => {
      if (request.response) withRequestId(request.response, requestIdOf(request.event));
    },
  };
}
