/**
 * The answers API Gateway produces itself (no key, unknown route, body too
 * large, throttled, authoriser or integration broken), rewritten into the
 * contract's error shape (docs/api.md §7): every non-2xx body is
 * `{ "error": true, "code", "message", "requestId" }` with the request id also in
 * the `x-request-id` header. This is why the API is a REST API: an HTTP API has
 * no Gateway Responses and would answer these in its own format.
 *
 * Gateway Response templates are not run through VTL; only `$context` variables
 * are substituted, so each body is a fixed JSON text around `$context.requestId`.
 */
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ERROR_CODES, type ErrorCode } from '../../lambdas/domain/errors';
import { GATEWAY_MESSAGES } from '../../lambdas/api/gateway-messages';
import { REQUEST_ID_HEADERS } from '../../lambdas/api/middleware/request-id';

export interface GatewayErrorSpec {
  type: ResponseType;
  /** Omitted for the DEFAULT_* catch-alls: they keep the status the gateway chose. */
  statusCode?: number;
  code: ErrorCode;
  /** Default: the code's title in ERROR_CODES. A `$context` expression is allowed. */
  message?: string;
  headers?: Record<string, string>;
}

/** Seconds a throttled client waits; API Gateway's token bucket refills every second. */
export const THROTTLED_RETRY_AFTER_SECONDS = 1;
/** Quotas are per day or longer, so a minute is the least useful wait. */
export const QUOTA_RETRY_AFTER_SECONDS = 60;

export const GATEWAY_ERRORS: readonly GatewayErrorSpec[] = [
  {
    type: ResponseType.UNAUTHORIZED,
    statusCode: 401,
    code: 'unauthorized',
    message: GATEWAY_MESSAGES.unauthorized,
    headers: { 'WWW-Authenticate': 'Bearer' },
  },
  { type: ResponseType.ACCESS_DENIED, statusCode: 403, code: 'forbidden' },
  // REST APIs answer an unknown path (or method) as if a signature were missing.
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: 404, code: 'route_not_found' },
  { type: ResponseType.RESOURCE_NOT_FOUND, statusCode: 404, code: 'route_not_found' },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: 413,
    code: 'payload_too_large',
    message: GATEWAY_MESSAGES.payloadTooLarge,
  },
  {
    type: ResponseType.THROTTLED,
    statusCode: 429,
    code: 'rate_limited',
    headers: { 'Retry-After': String(THROTTLED_RETRY_AFTER_SECONDS) },
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    statusCode: 429,
    code: 'rate_limited',
    headers: { 'Retry-After': String(QUOTA_RETRY_AFTER_SECONDS) },
  },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: 415, code: 'unsupported_media_type' },
  { type: ResponseType.BAD_REQUEST_BODY, statusCode: 400, code: 'validation_error', message: 'The request body is not valid.' },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, statusCode: 400, code: 'validation_error', message: 'The request parameters are not valid.' },
  { type: ResponseType.AUTHORIZER_FAILURE, statusCode: 500, code: 'internal_error', message: GATEWAY_MESSAGES.keyCheckFailed },
  {
    type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    statusCode: 503,
    code: 'service_unavailable',
    message: GATEWAY_MESSAGES.keyCheckFailed,
  },
  { type: ResponseType.INTEGRATION_FAILURE, statusCode: 502, code: 'bad_gateway' },
  { type: ResponseType.INTEGRATION_TIMEOUT, statusCode: 504, code: 'gateway_timeout' },
  // Whatever else the gateway refuses (bad signature, WAF, API configuration):
  // its own message, the contract's shape, the gateway's status.
  { type: ResponseType.DEFAULT_4XX, code: 'validation_error', message: '$context.error.message' },
  { type: ResponseType.DEFAULT_5XX, code: 'internal_error' },
];

/** The JSON body template: a fixed text with the request id filled in by the gateway. */
export function gatewayErrorTemplate(spec: GatewayErrorSpec): string {
  const message = spec.message ?? ERROR_CODES[spec.code].title;
  // `$context.error.message` may contain quotes; its `messageString` form is a quoted JSON string.
  const messageJson = message === '$context.error.message' ? '$context.error.messageString' : JSON.stringify(message);
  return `{"error":true,"code":${JSON.stringify(spec.code)},"message":${messageJson},"requestId":"$context.requestId"}`;
}

/** Response headers: static values are single-quoted; the request id (under each of its names) comes from the request context. */
export function gatewayErrorHeaders(spec: GatewayErrorSpec): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(REQUEST_ID_HEADERS.map((name) => [name, 'context.requestId']));
  for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name] = `'${value}'`;
  return headers;
}

export function addGatewayResponses(api: RestApi): void {
  for (const spec of GATEWAY_ERRORS) {
    api.addGatewayResponse(`GatewayResponse${spec.type.responseType}`, {
      type: spec.type,
      statusCode: spec.statusCode === undefined ? undefined : String(spec.statusCode),
      templates: { 'application/json': gatewayErrorTemplate(spec) },
      responseHeaders: gatewayErrorHeaders(spec),
    });
  }
}
