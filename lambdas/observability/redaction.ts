/**
 * What a log line may never carry, taken out of every value the logger writes
 * (logger.ts applies `redactLogValue` to each key and value as the line is
 * serialised, the message and an error's message and stack included):
 *
 * - API keys (`sk_live_…`, `sk_test_…`) and `Authorization: Bearer …` values;
 * - webhook signing secrets (`whsec_…`);
 * - share-link tokens (`ps1.<claims>.<mac>`);
 * - presigned URLs' signature and credential (`X-Amz-Signature`,
 *   `X-Amz-Credential`, `X-Amz-Security-Token` query values; the rest of the
 *   URL stays, so a line still says which object was meant);
 * - the value of any field whose name says it is a secret (SECRET_FIELD_NAMES),
 *   whatever it looks like: a DEV_API_KEY need not start with `sk_`;
 * - file contents: bytes (a Buffer, a typed array) are written as their length.
 *
 * This is the net, not the rule: code does not pass such values to the logger
 * in the first place.
 */

export const REDACTED = '[redacted]';

/**
 * Field names whose value is never written, compared lower-case with `-` and
 * `_` removed (`Authorization`, `x-amz-signature`, `webhook_secret` …).
 */
const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'authorizationtoken',
  'cookie',
  'setcookie',
  'apikey',
  'devapikey',
  'secret',
  'webhooksecret',
  'password',
  'token',
  'sharetoken',
  'sharesigningkey',
  'xamzsignature',
  'xamzcredential',
  'xamzsecuritytoken',
  'policy',
  'signature',
]);

/** Secrets found inside any text: the pattern and what is left of a match. */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [/\bsk_[A-Za-z0-9_]+/g, `sk_${REDACTED}`],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  [/\bps1\.[A-Za-z0-9_\-.]+/g, `ps1.${REDACTED}`],
  [/([?&;](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature|AWSAccessKeyId)=)[^&#\s"']*/gi, `$1${REDACTED}`],
];

const normalisedName = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

export const isSecretFieldName = (name: string): boolean => SECRET_FIELD_NAMES.has(normalisedName(name));

/** The text with every secret SECRET_PATTERNS knows replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A JSON.stringify replacer: the value to write for `key`. Strings lose their
 * secrets, fields named as secrets lose their value, bytes become their length;
 * anything else is written as it is (its own keys come back through here).
 */
export function redactLogValue(key: string, value: unknown): unknown {
  if (key !== '' && isSecretFieldName(key) && value !== undefined && value !== null && value !== '') return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  // A Buffer has already become `{ type: 'Buffer', data: [...] }` (its toJSON runs first).
  if (isSerialisedBuffer(value)) return `[${value.data.length} bytes]`;
  return value;
}

function isSerialisedBuffer(value: unknown): value is { type: 'Buffer'; data: unknown[] } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data);
}
