/**
 * Verifies presigned (query-string, Signature Version 4) S3 requests, which
 * s3rver accepts without checking: its V4 verification is unimplemented, so a
 * presigned URL whose key was edited to another account's file, or whose
 * signature was forged, would be served locally while S3 refuses it. The
 * storage gateway runs this before passing such a request on.
 *
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { S3Refusal, signingKey } from './post-policy';

export interface PresignedRequest {
  method: string;
  /** The request target as received: raw (still-encoded) path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** RFC 3986 encoding, as SigV4 canonicalisation requires. */
const escape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const isPresignedV4 = (url: string): boolean => /[?&]X-Amz-Algorithm=/.test(url);

/** Throws an S3Refusal unless the request carries a valid, unexpired signature. */
export function verifyPresignedRequest(req: PresignedRequest, secretFor: (accessKeyId: string) => string | undefined, now: Date): void {
  const [rawPath = '/', rawQuery = ''] = req.url.split('?', 2);
  const params: [string, string][] = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? [decode(p), ''] : [decode(p.slice(0, i)), decode(p.slice(i + 1))];
    });
  const q = new Map(params);
  const malformed = (what: string) =>
    new S3Refusal(400, 'AuthorizationQueryParametersError', `Query-string authentication version 4 requires ${what}.`);

  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') throw malformed('the X-Amz-Algorithm AWS4-HMAC-SHA256');
  const scope = (q.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = q.get('X-Amz-SignedHeaders') ?? '';
  const signature = q.get('X-Amz-Signature') ?? '';
  if (scope.length !== 5 || scope[4] !== 'aws4_request') throw malformed('a valid X-Amz-Credential');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m || m[1]! + m[2]! + m[3]! !== scope[1]) throw malformed('an X-Amz-Date matching the credential scope');
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) throw malformed('X-Amz-Expires between 1 and 604800 seconds');
  if (!signedHeaders.split(';').includes('host')) throw malformed('host among X-Amz-SignedHeaders');

  const [accessKeyId, date, region, service] = scope as [string, string, string, string];
  const secret = secretFor(accessKeyId);
  if (secret === undefined) throw new S3Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');

  const canonicalQuery = params
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [escape(k), escape(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method,
    // S3 signs the path as sent, without normalising or re-encoding it.
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope.slice(1).join('/'),
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const expected = Buffer.from(createHmac('sha256', signingKey(secret, date, region, service)).update(stringToSign).digest('hex'));
  const given = Buffer.from(signature.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new S3Refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }

  const signedAt = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (now.getTime() > signedAt + expires * 1000) throw new S3Refusal(403, 'AccessDenied', 'Request has expired');
}
