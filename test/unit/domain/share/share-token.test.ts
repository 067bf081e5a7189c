import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signShareToken, verifyShareToken, type ShareClaims } from '../../../../lambdas/domain/share/share-token';

const KEY = Buffer.from('a-share-key-of-at-least-thirty-two-characters', 'utf8');
const OTHER_KEY = Buffer.from('another-share-key-of-thirty-two-characters-xx', 'utf8');
const NOW = Date.parse('2026-03-01T12:00:00.000Z');

const claims: ShareClaims = {
  jobId: 'job_01jabcdefghjkmnpqrstvwxyz0',
  accountId: 'acct-a',
  generation: 2,
  expiresAt: NOW / 1000 + 3600,
  allowDecision: true,
};

/** The token with one character of part `index` (0 prefix, 1 claims, 2 mac) changed. */
function tampered(token: string, index: number): string {
  const parts = token.split('.');
  const part = parts[index]!;
  const i = Math.floor(part.length / 2);
  parts[index] = part.slice(0, i) + (part[i] === 'A' ? 'B' : 'A') + part.slice(i + 1);
  return parts.join('.');
}

describe('share tokens', () => {
  it('verifies a token it signed, giving back its claims', () => {
    const token = signShareToken(KEY, claims);
    expect(token).toMatch(/^ps1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyShareToken(KEY, token, NOW)).toEqual({ ok: true, claims });
  });

  it('keeps allowDecision false as false', () => {
    const token = signShareToken(KEY, { ...claims, allowDecision: false });
    expect(verifyShareToken(KEY, token, NOW)).toMatchObject({ ok: true, claims: { allowDecision: false } });
  });

  it('refuses a token whose claims were changed, even to another valid job id', () => {
    const token = signShareToken(KEY, claims);
    expect(verifyShareToken(KEY, tampered(token, 1), NOW)).toEqual({ ok: false, problem: 'signature' });
    const forged = signShareToken(OTHER_KEY, { ...claims, jobId: 'job_01jzzzzzzzzzzzzzzzzzzzzzzz' });
    const [, otherClaims] = forged.split('.');
    const [prefix, , mac] = token.split('.');
    expect(verifyShareToken(KEY, `${prefix}.${otherClaims}.${mac}`, NOW)).toEqual({ ok: false, problem: 'signature' });
  });

  it('refuses a token whose MAC was changed or that another key signed', () => {
    const token = signShareToken(KEY, claims);
    expect(verifyShareToken(KEY, tampered(token, 2), NOW)).toEqual({ ok: false, problem: 'signature' });
    expect(verifyShareToken(KEY, signShareToken(OTHER_KEY, claims), NOW)).toEqual({ ok: false, problem: 'signature' });
  });

  it('refuses a MAC whose last character differs only in the bits base64url decoding drops', () => {
    const token = signShareToken(KEY, claims);
    const last = token.at(-1)!;
    // A 32-byte MAC is 43 characters; the last holds 4 bits, so its low 2 bits are spare.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const index = alphabet.indexOf(last);
    const sameBytes = alphabet[index ^ 1]!;
    const variant = token.slice(0, -1) + sameBytes;
    expect(Buffer.from(variant.split('.')[2]!, 'base64url')).toEqual(Buffer.from(token.split('.')[2]!, 'base64url'));
    expect(verifyShareToken(KEY, variant, NOW)).toEqual({ ok: false, problem: 'signature' });
  });

  it('refuses an expired token, from the second it expires', () => {
    const token = signShareToken(KEY, claims);
    expect(verifyShareToken(KEY, token, claims.expiresAt * 1000 - 1).ok).toBe(true);
    expect(verifyShareToken(KEY, token, claims.expiresAt * 1000)).toEqual({ ok: false, problem: 'expired' });
  });

  it.each([
    ['nothing', undefined],
    ['an empty string', ''],
    ['an API key', 'sk_live_0123456789abcdefghijklmnopqrstuv'],
    ['another version', signShareToken(KEY, claims).replace(/^ps1/, 'ps2')],
    ['two parts', signShareToken(KEY, claims).split('.').slice(0, 2).join('.')],
    ['characters outside base64url', 'ps1.<img src=x>.abc'],
    ['an overlong token', `ps1.${'A'.repeat(600)}.AAAA`],
  ])('calls %s malformed', (_, token) => {
    expect(verifyShareToken(KEY, token, NOW)).toEqual({ ok: false, problem: 'malformed' });
  });

  it('refuses signed claims of the wrong shape (no claims are trusted before their MAC, nor after without their types)', () => {
    const claimsPart = Buffer.from(JSON.stringify(['job_x', 'acct-a', -1, 1, 1])).toString('base64url');
    const mac = createHmac('sha256', KEY).update(`ps1.${claimsPart}`).digest('base64url');
    expect(verifyShareToken(KEY, `ps1.${claimsPart}.${mac}`, NOW)).toEqual({ ok: false, problem: 'malformed' });
  });
});
