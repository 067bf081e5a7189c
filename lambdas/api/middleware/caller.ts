/**
 * Who is calling: the token authoriser (lambdas/api/authorizer.ts; the local
 * runtime emulates it) puts `{ accountId, keyId, role }` into the request
 * context. Without it the request never passed the authoriser, so it is refused
 * as unauthenticated rather than served without an account. The account's id
 * goes on the invocation's log lines from here on (never the key).
 */
import type { MiddlewareObj } from '@middy/core';
import { ApiError } from '../../domain/errors';
import type { Caller } from '../../domain/model';
import type { ApiEvent, ApiResult } from './http';
import { GATEWAY_MESSAGES } from '../gateway-messages';
import { appendCorrelationKeys } from '../../observability/logger';

export function callerFromContext(event: ApiEvent): Caller | null {
  const context = (event.requestContext?.authorizer ?? null) as Record<string, unknown> | null;
  if (!context) return null;
  const { accountId, keyId, role } = context;
  if (typeof accountId !== 'string' || accountId === '' || typeof keyId !== 'string' || keyId === '') return null;
  // Authoriser context values are strings; anything but "admin" is the default role.
  return { accountId, keyId, role: role === 'admin' ? 'admin' : 'standard' };
}

export function caller(): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    name: 'caller',
    before: (request) => {
      const found = callerFromContext(request.event);
      if (!found) {
        throw new ApiError('unauthorized', GATEWAY_MESSAGES.unauthorized, undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
      request.event.caller = found;
      appendCorrelationKeys({ accountId: found.accountId });
    },
  };
}
