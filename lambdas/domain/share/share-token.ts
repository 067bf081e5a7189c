/**
 * Share-link tokens (docs/api.md §3, Share links): `ps1.<claims>.<mac>`, both parts
 * base64url. The claims name one job, its account, the job's share generation
 * when the link was made, when the link expires and whether it may decide;
 * the MAC is HMAC-SHA256 over the version and the claims with the
 * deployment's share key (ShareKeySource).
 *
 * This module checks what the token itself can prove (its form, its MAC, its
 * expiry). Whether the job still exists, still belongs to that account and
 * still has that generation (DELETE /jobs/{id}/share raises it, revoking every
 * earlier link) is checked against the job record by the use case
 * (use-cases/open-shared-job.ts).
 *
 * A token is never an API key: it does not look like one (`sk_…`) and the
 * authoriser only knows keys by their hash, so presenting it as a Bearer key
 * is 401 like any unknown key (test/unit/api/share-links.test.ts proves it).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SHARE_TOKEN_PREFIX = 'ps1';

export interface ShareClaims {
  jobId: string;
  accountId: string;
  /** The job's shareGeneration when the link was made. */
  generation: number;
  /** Epoch seconds. */
  expiresAt: number;
  allowDecision: boolean;
}

export type ShareTokenCheck = { ok: true; claims: ShareClaims } | { ok: false; problem: 'malformed' | 'signature' | 'expired' };

/** Far longer than any token we make (ids are ~30 characters); refused before any work. */
export const MAX_SHARE_TOKEN_CHARS = 512;

const mac = (key: Uint8Array, claimsPart: string): Buffer => createHmac('sha256', key).update(`${SHARE_TOKEN_PREFIX}.${claimsPart}`, 'utf8').digest();

export function signShareToken(key: Uint8Array, claims: ShareClaims): string {
  const body = [claims.jobId, claims.accountId, claims.generation, claims.expiresAt, claims.allowDecision ? 1 : 0];
  const claimsPart = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  return `${SHARE_TOKEN_PREFIX}.${claimsPart}.${mac(key, claimsPart).toString('base64url')}`;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parseClaims(claimsPart: string): ShareClaims | null {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(body) || body.length !== 5) return null;
  const [jobId, accountId, generation, expiresAt, decide] = body as unknown[];
  if (typeof jobId !== 'string' || typeof accountId !== 'string') return null;
  if (!Number.isSafeInteger(generation) || (generation as number) < 0 || !Number.isSafeInteger(expiresAt)) return null;
  if (decide !== 0 && decide !== 1) return null;
  return { jobId, accountId, generation: generation as number, expiresAt: expiresAt as number, allowDecision: decide === 1 };
}

/** What the token proves by itself: `signature` for any token not made with this key, `expired` once past its time. */
export function verifyShareToken(key: Uint8Array, token: string | undefined, nowMs: number): ShareTokenCheck {
  if (typeof token !== 'string' || token.length > MAX_SHARE_TOKEN_CHARS) return { ok: false, problem: 'malformed' };
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts[0] !== SHARE_TOKEN_PREFIX || !BASE64URL.test(parts[1]!) || !BASE64URL.test(parts[2]!)) {
    return { ok: false, problem: 'malformed' };
  }
  // The MAC first: nothing of a token we did not sign is read, not even its claims.
  // Compared as text, not as decoded bytes: the last base64url character of a
  // 32-byte MAC carries two spare bits that decoding drops, so a link with that
  // character changed (…A → …B) would decode to the same MAC and still open
  // (the e2e test's tampered link did, one run in sixteen).
  const expected = Buffer.from(mac(key, parts[1]!).toString('base64url'), 'ascii');
  const given = Buffer.from(parts[2]!, 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: 'signature' };
  const claims = parseClaims(parts[1]!);
  if (!claims) return { ok: false, problem: 'malformed' };
  if (nowMs >= claims.expiresAt * 1000) return { ok: false, problem: 'expired' };
  return { ok: true, claims };
}
