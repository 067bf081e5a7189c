/**
 * `Idempotency-Key` on POSTs (docs/api.md §7). The key is scoped to the caller's
 * account; the request is identified by a hash of method, route (with its path
 * parameters) and the canonical JSON body. Within 24 hours the same key and
 * hash replay the first response (`idempotent-replayed: true`) without running
 * the handler again; another body is a 409, as is a key whose first request is
 * still running. Responses below 500 are kept, including 4xx errors, so a
 * replay answers exactly as the first time; a 5xx releases the claim so the
 * client can retry the same request.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { ApiError } from '../../domain/errors';
import type { IdempotencyStore, StoredResponse } from '../../domain/ports';
import { canonicalJson } from './canonical-json';
import { header, type ApiEvent, type ApiResult } from './http';
import { REQUEST_ID_HEADERS, requestIdOf, withRequestId } from './request-id';
import { asError, logger } from '../../observability/logger';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_KEY_LENGTH = 255;

/** The concrete route: `/jobs/{id}/review` with its id, so one key cannot span two jobs. */
function routeOf(event: ApiEvent): string {
  const template = event.resource || event.path || '';
  return template.replace(/\{([^}+]+)\+?\}/g, (_, name: string) => event.pathParameters?.[name] ?? '');
}

export function requestHash(event: ApiEvent): string {
  return createHash('sha256')
    .update(`${event.httpMethod}\n${routeOf(event)}\n${canonicalJson(event.jsonBody)}`)
    .digest('hex');
}

function toStored(response: ApiResult): StoredResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    // The request id belongs to each request, not to the stored answer.
    if (!REQUEST_ID_HEADERS.includes(name.toLowerCase())) headers[name] = String(value);
  }
  return { statusCode: response.statusCode, headers, body: response.body };
}

interface Claim {
  accountId: string;
  key: string;
}

/** Use after `caller` and `json-body` (it needs both) and before `http-errors`. */
export function idempotency(store: () => IdempotencyStore): MiddlewareObj<ApiEvent, ApiResult> {
  const claims = new WeakMap<object, Claim>();

  async function settle(request: { event: ApiEvent; response: ApiResult | null | undefined }, claim: Claim): Promise<void> {
    const response = request.response;
    try {
      if (response && response.statusCode < 500) await store().complete(claim.accountId, claim.key, toStored(response));
      else await store().release(claim.accountId, claim.key);
    } catch (error) {
      // The work is done and its answer is ready; failing it now would invite a
      // retry that repeats the work. The claim stays "in progress" until it expires.
      logger.error({ message: 'idempotency record not settled', requestId: requestIdOf(request.event) }, asError(error));
    }
  }

  return {
    name: 'idempotency',
    before: async (request) => {
      const event = request.event;
      if (event.httpMethod !== 'POST') return;
      const key = header(event, IDEMPOTENCY_HEADER);
      if (key === undefined) return;
      if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
        throw new ApiError(
          'validation_error',
          `${IDEMPOTENCY_HEADER}: must be 1 to ${MAX_KEY_LENGTH} characters`,
          IDEMPOTENCY_HEADER,
        );
      }
      if (!event.caller) throw new Error('idempotency middleware needs the caller middleware before it');
      const claim: Claim = { accountId: event.caller.accountId, key };
      const result = await store().claim(claim.accountId, key, requestHash(event), IDEMPOTENCY_TTL_SECONDS);
      switch (result.state) {
        case 'claimed':
          claims.set(request, claim);
          return;
        case 'replay':
          return withRequestId(
            {
              statusCode: result.response.statusCode,
              headers: { ...result.response.headers, [REPLAYED_HEADER]: 'true' },
              body: result.response.body,
            },
            requestIdOf(event),
          );
        case 'mismatch':
          throw new ApiError(
            'idempotency_key_reused',
            `This ${IDEMPOTENCY_HEADER} was used with another request; use a new key for a new request.`,
            IDEMPOTENCY_HEADER,
          );
        case 'in_progress':
          throw new ApiError(
            'idempotency_in_progress',
            `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry in a moment.`,
            IDEMPOTENCY_HEADER,
          );
      }
    },
    after: async (request) => {
      const claim = claims.get(request);
      if (claim) await settle(request, claim);
    },
    onError: async (request) => {
      const claim = claims.get(request);
      if (claim) await settle(request, claim);
    },
  };
}
