/**
 * S3's rules for browser-based POST uploads (AWS Signature Version 4), which
 * s3rver does not enforce: the form carries a base64 policy and its signature;
 * storage checks the signature, the policy's expiration, and that the form
 * satisfies every condition and carries no field the policy does not mention.
 * Pure functions over the form's fields; the storage gateway streams the file
 * and applies the size range this returns.
 *
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-HTTPPOSTConstructPolicy.html
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** An S3-style refusal: HTTP status, S3 error code, message. */
export class S3Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
    this.name = 'S3Refusal';
  }
}

const accessDenied = (why: string) => new S3Refusal(403, 'AccessDenied', `Invalid according to Policy: ${why}`);
const invalidPolicy = (why: string) => new S3Refusal(400, 'InvalidPolicyDocument', `Invalid Policy: ${why}`);

export type PolicyCondition =
  | { kind: 'eq'; field: string; value: string }
  | { kind: 'starts-with'; field: string; prefix: string }
  | { kind: 'content-length-range'; min: number; max: number };

export interface PostPolicy {
  expiration: Date;
  conditions: PolicyCondition[];
  /** The conditions as written, for error messages. */
  raw: unknown[];
}

/** Form field names are case-insensitive; callers pass them lower-cased. */
export type FormFields = Record<string, string>;

/** What an accepted form may store: the size range (bytes, inclusive). */
export interface AcceptedPost {
  minBytes: number;
  maxBytes: number;
  accessKeyId: string;
}

/** Fields that never need a condition. */
const EXEMPT_FIELDS = new Set(['policy', 'x-amz-signature', 'file']);

export function decodePolicy(base64: string): PostPolicy {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy('Invalid JSON.');
  }
  const { expiration, conditions } = (doc ?? {}) as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string' || Number.isNaN(Date.parse(expiration))) throw invalidPolicy('Policy missing expiration.');
  if (!Array.isArray(conditions)) throw invalidPolicy('Policy missing conditions.');
  return { expiration: new Date(expiration), conditions: conditions.map(parseCondition), raw: conditions };
}

function parseCondition(c: unknown): PolicyCondition {
  if (Array.isArray(c)) {
    const [op, a, b] = c as unknown[];
    if (op === 'content-length-range' && c.length === 3) {
      const min = Number(a);
      const max = Number(b);
      if (Number.isInteger(min) && Number.isInteger(max) && min >= 0 && max >= min) return { kind: 'content-length-range', min, max };
    }
    if ((op === 'eq' || op === 'starts-with') && c.length === 3 && typeof a === 'string' && a.startsWith('$') && typeof b === 'string') {
      const field = a.slice(1).toLowerCase();
      return op === 'eq' ? { kind: 'eq', field, value: b } : { kind: 'starts-with', field, prefix: b };
    }
  } else if (c && typeof c === 'object') {
    const entries = Object.entries(c);
    if (entries.length === 1 && typeof entries[0]![1] === 'string') return { kind: 'eq', field: entries[0]![0].toLowerCase(), value: entries[0]![1] };
  }
  throw invalidPolicy(`Invalid Condition: ${JSON.stringify(c)}`);
}

/** The SigV4 signing key: HMAC chain from the secret over date, region, service, `aws4_request`. */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(date).digest();
  const kRegion = createHmac('sha256', kDate).update(region).digest();
  const kService = createHmac('sha256', kRegion).update(service).digest();
  return createHmac('sha256', kService).update('aws4_request').digest();
}

export const signPolicy = (base64Policy: string, key: Buffer): string => createHmac('sha256', key).update(base64Policy).digest('hex');

/**
 * Checks everything S3 checks before it accepts the file part: signature,
 * expiration, every condition, no unlisted field. Returns the allowed size range.
 */
export function authorisePost(opts: {
  bucket: string;
  fields: FormFields;
  secretFor: (accessKeyId: string) => string | undefined;
  now: Date;
}): AcceptedPost {
  const { fields } = opts;
  const policyB64 = fields.policy;
  const signature = fields['x-amz-signature'];
  if (!policyB64 || !signature) {
    throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
  }
  if (fields['x-amz-algorithm'] !== 'AWS4-HMAC-SHA256') {
    throw new S3Refusal(400, 'InvalidArgument', 'Only the AWS4-HMAC-SHA256 algorithm is supported for POST uploads.');
  }
  const scope = (fields['x-amz-credential'] ?? '').split('/');
  if (scope.length !== 5 || scope[3] !== 's3' || scope[4] !== 'aws4_request' || !/^\d{8}$/.test(scope[1]!)) {
    throw new S3Refusal(400, 'AuthorizationQueryParametersError', 'X-Amz-Credential is malformed.');
  }
  const [accessKeyId, date, region, service] = scope as [string, string, string, string];
  const secret = opts.secretFor(accessKeyId);
  if (secret === undefined) {
    throw new S3Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  const expected = Buffer.from(signPolicy(policyB64, signingKey(secret, date, region, service)), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new S3Refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }

  const policy = decodePolicy(policyB64);
  if (policy.expiration.getTime() <= opts.now.getTime()) throw accessDenied('Policy expired.');

  let minBytes = 0;
  let maxBytes = 5 * 1024 ** 3; // S3's largest single POST
  const covered = new Set<string>();
  policy.conditions.forEach((c, i) => {
    if (c.kind === 'content-length-range') {
      minBytes = Math.max(minBytes, c.min);
      maxBytes = Math.min(maxBytes, c.max);
      return;
    }
    covered.add(c.field);
    const actual = c.field === 'bucket' ? opts.bucket : fields[c.field];
    const ok =
      c.kind === 'eq'
        ? actual === c.value
        : actual === undefined
          ? c.prefix === ''
          : // Content-Type may list several values; each must start with the prefix.
            (c.field === 'content-type' ? actual.split(',').map((s) => s.trim()) : [actual]).every((v) => v.startsWith(c.prefix));
    if (!ok) throw accessDenied(`Policy Condition failed: ${JSON.stringify(policy.raw[i])}`);
  });

  const extra = Object.keys(fields).filter((f) => !EXEMPT_FIELDS.has(f) && !f.startsWith('x-ignore-') && !covered.has(f));
  if (extra.length > 0) throw accessDenied(`Extra input fields: ${extra.join(', ')}`);

  return { minBytes, maxBytes, accessKeyId };
}

/** The object key: the `key` field, with `${filename}` replaced by the uploaded file's name. */
export function objectKey(fields: FormFields, fileName: string | undefined): string {
  const key = fields.key;
  if (!key) throw new S3Refusal(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
  return key.replace('${filename}', fileName ?? '');
}
