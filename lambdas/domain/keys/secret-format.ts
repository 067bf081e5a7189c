/**
 * The shape of secret keys and webhook signing secrets (docs/api.md §8).
 *
 * A secret key is `sk_live_` or `sk_test_`, 30 random base62 characters and a
 * 6-character base62 CRC32 of everything before it. The checksum lets the
 * authoriser refuse a mistyped or truncated key without reading the database,
 * which also keeps random guessing from costing a table read per attempt.
 * Only the SHA-256 of a secret is stored; a short prefix is kept for display.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type KeyMode = 'live' | 'test';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const SECRET_RE = /^(sk_(?:live|test)_)([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;
/** Random bytes per webhook secret; Standard Webhooks asks for 24 to 64. */
const WEBHOOK_SECRET_BYTES = 32;

/** Uniform base62: bytes ≥ 248 are dropped so `% 62` has no bias (248 = 4 × 62). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A 32-bit number as exactly 6 base62 digits (62^6 > 2^32). */
function base62Fixed(value: number, length: number): string {
  let n = value >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

const checksumOf = (prefixAndBody: string): string => base62Fixed(crc32(prefixAndBody), CHECKSUM_LENGTH);

export function generateSecret(mode: KeyMode): string {
  const head = `sk_${mode}_${randomBase62(BODY_LENGTH)}`;
  return head + checksumOf(head);
}

/** True only for a well-formed `sk_live_…`/`sk_test_…` whose checksum matches. */
export function hasValidChecksum(secret: string): boolean {
  if (typeof secret !== 'string') return false;
  const m = SECRET_RE.exec(secret);
  if (!m) return false;
  return checksumOf(m[1]! + m[2]!) === m[3];
}

/** What the key store keeps instead of the secret: SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The part of a secret people see in listings (`sk_live_AbCd`). A free-form
 * secret (DEV_API_KEY) shows at most a third of itself, so a short one is not
 * printed whole.
 */
export function displayPrefix(secret: string): string {
  const m = SECRET_RE.exec(secret);
  if (m) return m[1]! + m[2]!.slice(0, 4);
  return secret.slice(0, Math.min(12, Math.floor(secret.length / 3)));
}

/** An account's webhook signing secret: `whsec_` + base64 of random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a `whsec_…` secret: the base64-decoded part after the prefix. */
export function webhookSigningKey(webhookSecret: string): Buffer {
  const encoded = webhookSecret.startsWith('whsec_') ? webhookSecret.slice('whsec_'.length) : webhookSecret;
  return Buffer.from(encoded, 'base64');
}

export const SECRET_KEY_LENGTH = 'sk_live_'.length + BODY_LENGTH + CHECKSUM_LENGTH;
