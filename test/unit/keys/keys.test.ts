import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServices, type TestServices } from '../../support/test-services';
import {
  authenticate,
  generateSecret,
  hashSecret,
  issueKey,
  KeyRequestError,
  listKeys,
  registerKey,
  revokeKey,
} from '../../../lambdas/domain/keys';
import { isId } from '../../../lambdas/domain/ids';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(async () => {
  await t?.stop();
});

const deps = () => [t.services.keys, t.services.ids, t.services.clock] as const;

describe('issueKey', () => {
  it('creates a key and, with the first key of an account, the account and its webhook secret', async () => {
    const issued = await issueKey(...deps(), { accountId: 'acme' });
    expect(isId('key', issued.id)).toBe(true);
    expect(issued.key).toMatch(/^sk_live_/);
    expect(issued).toMatchObject({ account: 'acme', role: 'standard' });
    expect(issued.webhookSecret).toMatch(/^whsec_/);
    const account = await t.services.keys.getAccount('acme');
    expect(account?.webhookSecret).toBe(issued.webhookSecret);
  });

  it('gives later keys of the account the same webhook secret', async () => {
    const first = await issueKey(...deps(), { accountId: 'shared-secret' });
    const second = await issueKey(...deps(), { accountId: 'shared-secret', role: 'admin', mode: 'test' });
    expect(second.webhookSecret).toBe(first.webhookSecret);
    expect(second.key).toMatch(/^sk_test_/);
    expect(second.role).toBe('admin');
  });

  it('stores only the hash and a display prefix, never the secret', async () => {
    const issued = await issueKey(...deps(), { accountId: 'hash-only' });
    const [record] = await t.services.keys.listKeys('hash-only');
    expect(record).toMatchObject({ id: issued.id, hash: hashSecret(issued.key), prefix: issued.key.slice(0, 12), revokedAt: null });
    expect(JSON.stringify(record)).not.toContain(issued.key);
  });

  it('refuses account names outside ^[a-z0-9][a-z0-9_-]{0,62}$ and unknown roles', async () => {
    for (const accountId of ['', 'Acme', '-acme', 'a b', 'a'.repeat(64), 'acme!', 'ünï']) {
      await expect(issueKey(...deps(), { accountId }), accountId).rejects.toBeInstanceOf(KeyRequestError);
    }
    await expect(issueKey(...deps(), { accountId: 'acme', role: 'owner' as never })).rejects.toThrow(/role/);
    await expect(issueKey(...deps(), { accountId: 'a'.repeat(63) })).resolves.toMatchObject({ account: 'a'.repeat(63) });
  });
});

describe('authenticate', () => {
  it('returns the caller of a valid key', async () => {
    const issued = await issueKey(...deps(), { accountId: 'callers', role: 'admin' });
    expect(await authenticate(t.services.keys, issued.key)).toEqual({ accountId: 'callers', keyId: issued.id, role: 'admin' });
  });

  it('refuses a key with a bad checksum without reading the store', async () => {
    let reads = 0;
    const counting = { ...t.services.keys, findByHash: async (hash: string) => { reads++; return t.services.keys.findByHash(hash); } };
    const issued = await issueKey(...deps(), { accountId: 'typos' });
    const typo = issued.key.slice(0, -1) + (issued.key.endsWith('a') ? 'b' : 'a');
    expect(await authenticate(counting, typo)).toBeNull();
    expect(await authenticate(counting, 'not-a-key')).toBeNull();
    expect(await authenticate(counting, '')).toBeNull();
    expect(reads).toBe(0);
  });

  it('refuses a well-formed key that was never issued', async () => {
    expect(await authenticate(t.services.keys, generateSecret('live'))).toBeNull();
  });

  it('refuses a revoked key', async () => {
    const issued = await issueKey(...deps(), { accountId: 'revoked' });
    expect(await revokeKey(t.services.keys, t.services.clock, issued.id)).toBe(true);
    expect(await authenticate(t.services.keys, issued.key)).toBeNull();
  });

  it('accepts a checksum-less secret only when it is the configured dev key', async () => {
    await registerKey(...deps(), { secret: 'dev-local-secret', accountId: 'local' });
    expect(await authenticate(t.services.keys, 'dev-local-secret')).toBeNull();
    expect(await authenticate(t.services.keys, 'dev-local-secret', 'another-dev-key')).toBeNull();
    expect(await authenticate(t.services.keys, 'dev-local-secret', 'dev-local-secret')).toMatchObject({ accountId: 'local', role: 'standard' });
  });
});

describe('registerKey', () => {
  it('registers a secret verbatim and is idempotent', async () => {
    const first = await registerKey(...deps(), { secret: 'verbatim-dev-key', accountId: 'local' });
    const again = await registerKey(...deps(), { secret: 'verbatim-dev-key', accountId: 'local' });
    expect(again).toEqual(first);
    expect(first.key).toBe('verbatim-dev-key');
    const mine = (await t.services.keys.listKeys('local')).filter((k) => k.hash === hashSecret('verbatim-dev-key'));
    expect(mine).toHaveLength(1);
  });

  it('refuses a secret that a bearer header could not carry', async () => {
    for (const secret of ['', 'has space', 'x'.repeat(257)]) {
      await expect(registerKey(...deps(), { secret, accountId: 'local' })).rejects.toBeInstanceOf(KeyRequestError);
    }
  });

  it('refuses to bring back a revoked secret', async () => {
    const dev = await registerKey(...deps(), { secret: 'revoked-dev-key', accountId: 'local' });
    await revokeKey(t.services.keys, t.services.clock, dev.id);
    await expect(registerKey(...deps(), { secret: 'revoked-dev-key', accountId: 'local' })).rejects.toThrow(/revoked/);
  });
});

describe('listKeys and revokeKey', () => {
  it('lists the keys of one account, oldest first, without hashes', async () => {
    const a = await issueKey(...deps(), { accountId: 'listing' });
    const b = await issueKey(...deps(), { accountId: 'listing', role: 'admin' });
    await issueKey(...deps(), { accountId: 'listing-other' });
    const keys = await listKeys(t.services.keys, 'listing');
    expect(keys.map((k) => k.id)).toEqual([a.id, b.id]);
    expect(keys[1]).toEqual({ id: b.id, account: 'listing', role: 'admin', prefix: b.key.slice(0, 12), createdAt: expect.any(String), revokedAt: null });
    expect(JSON.stringify(keys)).not.toMatch(/hash/);
  });

  it('lists every account when none is named', async () => {
    const all = await listKeys(t.services.keys);
    const accounts = new Set(all.map((k) => k.account));
    expect(accounts.has('listing') && accounts.has('listing-other') && accounts.has('acme')).toBe(true);
  });

  it('says false when revoking a key that does not exist', async () => {
    expect(await revokeKey(t.services.keys, t.services.clock, 'key_01h0000000000000000000000')).toBe(false);
    expect(await revokeKey(t.services.keys, t.services.clock, 'nonsense')).toBe(false);
  });

  it('records when a key was revoked', async () => {
    const issued = await issueKey(...deps(), { accountId: 'revoke-time' });
    await revokeKey(t.services.keys, t.services.clock, issued.id);
    const [summary] = await listKeys(t.services.keys, 'revoke-time');
    expect(summary!.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
