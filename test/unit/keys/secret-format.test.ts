import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  displayPrefix,
  generateSecret,
  generateWebhookSecret,
  hasValidChecksum,
  hashSecret,
  SECRET_KEY_LENGTH,
  webhookSigningKey,
} from '../../../lambdas/domain/keys/secret-format';

describe('secret keys', () => {
  it('look like sk_live_<base62> or sk_test_<base62>', () => {
    expect(generateSecret('live')).toMatch(/^sk_live_[0-9A-Za-z]{36}$/);
    expect(generateSecret('test')).toMatch(/^sk_test_[0-9A-Za-z]{36}$/);
    expect(generateSecret('live')).toHaveLength(SECRET_KEY_LENGTH);
  });

  it('are different every time', () => {
    const many = new Set(Array.from({ length: 500 }, () => generateSecret('live')));
    expect(many.size).toBe(500);
  });

  it('carry a checksum that every issued key passes', () => {
    for (let i = 0; i < 500; i++) expect(hasValidChecksum(generateSecret(i % 2 ? 'live' : 'test'))).toBe(true);
  });

  it('fail the checksum after any single-character typo', () => {
    const secret = generateSecret('live');
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    for (let pos = 'sk_live_'.length; pos < secret.length; pos++) {
      const replacement = alphabet[(alphabet.indexOf(secret[pos]!) + 1 + pos) % 62]!;
      const typo = secret.slice(0, pos) + replacement + secret.slice(pos + 1);
      expect(hasValidChecksum(typo), typo).toBe(false);
    }
  });

  it('fail the checksum when swapped from live to test, truncated, extended or transposed', () => {
    const secret = generateSecret('live');
    expect(hasValidChecksum(secret.replace('sk_live_', 'sk_test_'))).toBe(false);
    expect(hasValidChecksum(secret.slice(0, -1))).toBe(false);
    expect(hasValidChecksum(`${secret}0`)).toBe(false);
    const body = secret.slice(8);
    const swapped = body[0] === body[1] ? null : `sk_live_${body[1]}${body[0]}${body.slice(2)}`;
    if (swapped) expect(hasValidChecksum(swapped)).toBe(false);
  });

  it('refuse anything that is not a key at all', () => {
    for (const value of ['', 'sk_live_', 'Bearer x', 'pk_live_' + 'a'.repeat(36), 'sk_prod_' + 'a'.repeat(36), undefined, null, 42]) {
      expect(hasValidChecksum(value as string)).toBe(false);
    }
  });

  it('are stored as their SHA-256 in hex', () => {
    const secret = generateSecret('live');
    expect(hashSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('show a short prefix for people, and never more than a third of a free-form secret', () => {
    const secret = generateSecret('live');
    expect(displayPrefix(secret)).toBe(secret.slice(0, 12));
    expect(displayPrefix('dev-secret-123')).toBe('dev-');
    expect(displayPrefix('abc')).toBe('a');
  });
});

describe('webhook signing secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSigningKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
