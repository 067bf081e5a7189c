import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { guardedLookup, UrlNotAllowedError, type LookupFunction } from '../../../lambdas/platform/net/guarded-lookup';

/** A resolver that answers from a table; no DNS traffic. */
const fakeResolver = (table: Record<string, string[]>): LookupFunction => (hostname, _options, callback) => {
  const addresses = table[hostname];
  if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  callback(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};

function lookup(fn: LookupFunction, hostname: string, all: boolean): Promise<string | LookupAddress[]> {
  return new Promise((resolve, reject) => fn(hostname, { all }, (err, address) => (err ? reject(err) : resolve(address))));
}

const resolver = fakeResolver({
  'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
  'rebind.example': ['169.254.169.254'],
  'mixed.example': ['93.184.216.34', '10.0.0.7'],
  'mapped.example': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'evil-localhost': ['192.0.2.1'],
});

describe('guardedLookup in the cloud', () => {
  const cloud = guardedLookup('cloud', resolver);

  it('passes public addresses through, in both callback forms', async () => {
    expect(await lookup(cloud, 'public.example', true)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await lookup(cloud, 'public.example', false)).toBe('93.184.216.34');
  });

  it('refuses a name that resolves to the metadata address', async () => {
    const err = await lookup(cloud, 'rebind.example', false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    expect((err as UrlNotAllowedError).reason).toMatch(/^the host rebind\.example resolves to 169\.254\.169\.254 \(a metadata address\); only public addresses may be reached$/);
  });

  it('refuses a name when any one of its addresses is private', async () => {
    await expect(lookup(cloud, 'mixed.example', true)).rejects.toBeInstanceOf(UrlNotAllowedError);
  });

  it('refuses loopback reached through an IPv4-mapped address', async () => {
    await expect(lookup(cloud, 'mapped.example', true)).rejects.toBeInstanceOf(UrlNotAllowedError);
  });

  it('passes resolver errors through unchanged', async () => {
    await expect(lookup(cloud, 'nowhere.example', false)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('guardedLookup in the local runtime', () => {
  const local = guardedLookup('local', resolver);

  it('passes loopback addresses', async () => {
    expect(await lookup(local, 'localhost', true)).toHaveLength(2);
  });

  it('refuses a name that resolves off the machine', async () => {
    await expect(lookup(local, 'evil-localhost', false)).rejects.toBeInstanceOf(UrlNotAllowedError);
    await expect(lookup(local, 'public.example', true)).rejects.toBeInstanceOf(UrlNotAllowedError);
  });
});
