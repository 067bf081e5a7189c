/**
 * Errors the API reports, each with a stable `code` (docs/api.md §7). Handlers and use
 * cases throw these; one middleware (api/middleware/http-errors) turns them into
 * the contract's error body. The list of codes is also published in the README
 * and the OpenAPI document, so codes are added here and nowhere else.
 */
export const ERROR_CODES = {
  validation_error: { status: 400, title: 'The request is not valid.' },
  invalid_json: { status: 400, title: 'The body is not valid JSON.' },
  source_not_uploaded: { status: 400, title: 'The fileRef names no finished upload of this account.' },
  profile_not_found: { status: 400, title: 'The profileId names no built-in profile and no profile of this account.' },
  unauthorized: { status: 401, title: 'A valid secret key is required.' },
  forbidden: { status: 403, title: 'This key is not allowed to do this.' },
  share_link_invalid: { status: 403, title: 'The share link is not valid.' },
  decision_not_allowed: { status: 403, title: 'This share link does not allow a decision.' },
  not_found: { status: 404, title: 'No such resource.' },
  route_not_found: { status: 404, title: 'No such endpoint.' },
  method_not_allowed: { status: 405, title: 'The endpoint does not accept this method.' },
  idempotency_key_reused: { status: 409, title: 'The Idempotency-Key was used with another request.' },
  idempotency_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still being processed.' },
  job_not_terminal: { status: 409, title: 'The job has not finished yet.' },
  review_not_applicable: { status: 409, title: 'The job is not under manual review.' },
  already_reviewed: { status: 409, title: 'The job was already reviewed.' },
  already_decided: { status: 409, title: 'A decision on this proof was already recorded.' },
  profile_exists: { status: 409, title: 'The account already has a profile with this id.' },
  profile_limit_reached: { status: 409, title: 'The account has as many profiles as it may; delete one first.' },
  share_link_expired: { status: 410, title: 'The share link has expired.' },
  share_link_revoked: { status: 410, title: 'The share link was revoked.' },
  payload_too_large: { status: 413, title: 'The body is too large; upload files with POST /uploads.' },
  unsupported_media_type: { status: 415, title: 'The body must be JSON (Content-Type: application/json).' },
  rate_limited: { status: 429, title: 'Too many requests; retry after the time in Retry-After.' },
  headers_too_large: { status: 431, title: 'The request headers are too large.' },
  internal_error: { status: 500, title: 'Something went wrong on our side.' },
  bad_gateway: { status: 502, title: 'The service failed to answer the request.' },
  service_unavailable: { status: 503, title: 'The service is temporarily unavailable.' },
  gateway_timeout: { status: 504, title: 'The service did not answer in time; the request may still have taken effect.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly param?: string,
    /** Extra response headers (WWW-Authenticate, Retry-After, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? ERROR_CODES[code].title);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }
}

/** The contract's error body. */
export interface ErrorBody {
  error: true;
  code: ErrorCode;
  message: string;
  param?: string;
  requestId: string;
}

export function errorBody(code: ErrorCode, message: string, requestId: string, param?: string): ErrorBody {
  return param === undefined ? { error: true, code, message, requestId } : { error: true, code, message, param, requestId };
}

/**
 * A file that cannot be processed (unreadable, download failed, too large, not
 * allowed): the task ends in `error` with this message as its reason. Workers
 * throw it; the step runner records it instead of crashing.
 */
export class UnprocessableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnprocessableFileError';
  }
}
