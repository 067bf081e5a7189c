/**
 * CORS on the storage gateway, answered as S3 answers it for a bucket whose CORS rule names the
 * console's origin (lib/constructs/storage.ts holds the cloud's rule). The console is served from
 * another origin than storage (locally another port, in the cloud the bucket), and it uploads with
 * a presigned POST whose progress it follows: an upload listener makes the browser send a
 * preflight OPTIONS first, and the POST's answer (204, or S3's refusal) is readable only with
 * Access-Control-Allow-Origin naming the console. Only the listed origins get it, never `*`: any
 * other page may still submit a form, but it learns nothing from the answer.
 */

export interface StorageCors {
  /** Exact origins (`http://127.0.0.1:3000`); empty: no browser origin is allowed. */
  origins: readonly string[];
}

/** What the rule allows: uploads by form, downloads and their HEAD (as the bucket's rule). */
export const CORS_METHODS = ['POST', 'GET', 'HEAD'] as const;
/** Headers a page may read from an answer: the stored object's ETag and Location. */
const EXPOSED_HEADERS = 'ETag, Location';
const MAX_AGE_SECONDS = '3600';

export interface CorsAnswer {
  status: number;
  headers: Record<string, string>;
  /** S3's error code and message when the preflight is refused. */
  refusal?: { code: string; message: string };
}

const VARY = 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method';

const allowed = (cors: StorageCors, origin: string | undefined): origin is string => origin !== undefined && cors.origins.includes(origin);

/** The headers an ordinary (not preflight) answer carries for a request from `origin`. */
export function corsHeaders(cors: StorageCors, origin: string | undefined): Record<string, string> {
  if (!allowed(cors, origin)) return { Vary: VARY };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_METHODS.join(', '),
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: VARY,
  };
}

/** The answer to an OPTIONS request: S3's preflight rules (400 without an Origin, 403 outside the rule). */
export function preflightAnswer(
  cors: StorageCors,
  request: { origin: string | undefined; method: string | undefined; headers: string | undefined },
): CorsAnswer {
  if (!request.origin) {
    return { status: 400, headers: {}, refusal: { code: 'BadRequest', message: 'Insufficient information. Origin request header needed.' } };
  }
  if (!request.method) {
    return { status: 400, headers: {}, refusal: { code: 'BadRequest', message: 'Invalid Access-Control-Request-Method: null' } };
  }
  if (!allowed(cors, request.origin) || !(CORS_METHODS as readonly string[]).includes(request.method)) {
    return {
      status: 403,
      headers: { Vary: VARY },
      refusal: {
        code: 'AccessForbidden',
        message:
          "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
      },
    };
  }
  // The bucket's rule allows every request header (AllowedHeaders '*'): S3 echoes those asked for.
  const headers: Record<string, string> = { ...corsHeaders(cors, request.origin), 'Access-Control-Max-Age': MAX_AGE_SECONDS };
  if (request.headers) headers['Access-Control-Allow-Headers'] = request.headers;
  return { status: 200, headers };
}
