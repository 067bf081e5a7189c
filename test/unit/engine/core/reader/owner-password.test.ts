import { createCipheriv, randomBytes } from 'node:crypto';
import { PDFContext, PDFDict, PDFHexString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { cipherFactoryFor } from '../../../../../lambdas/engine/core/reader/cipher';
import { hashR6, openedByEmptyOwnerPassword } from '../../../../../lambdas/engine/core/reader/owner-password';

const encrypt = (key: Uint8Array, data: Uint8Array) => {
  const c = createCipheriv('aes-256-cbc', key, Buffer.alloc(16));
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
};

/** A revision 6 dictionary for user password `user` and owner password `owner`, around `fileKey`. */
function r6Dict(user: string, owner: string, fileKey: Buffer): PDFDict {
  const [uvs, uks, ovs, oks] = [randomBytes(8), randomBytes(8), randomBytes(8), randomBytes(8)];
  const u = Buffer.concat([hashR6(Buffer.from(user), uvs, new Uint8Array(0)), uvs, uks]);
  const o = Buffer.concat([hashR6(Buffer.from(owner), ovs, u), ovs, oks]);
  const context = PDFContext.create();
  return context.obj({
    Filter: 'Standard', V: 5, R: 6, Length: 256, P: -4,
    U: PDFHexString.fromBytes(u), O: PDFHexString.fromBytes(o),
    UE: PDFHexString.fromBytes(encrypt(hashR6(Buffer.from(user), uks, new Uint8Array(0)), fileKey)),
    OE: PDFHexString.fromBytes(encrypt(hashR6(Buffer.from(owner), oks, u), fileKey)),
    Perms: PDFHexString.fromBytes(randomBytes(16)),
    CF: { StdCF: { CFM: 'AESV3', Length: 32, AuthEvent: 'DocOpen' } }, StmF: 'StdCF', StrF: 'StdCF',
  }) as PDFDict;
}

describe('openedByEmptyOwnerPassword', () => {
  it('opens an AES-256 file whose owner password is empty with the file key', async () => {
    const fileKey = randomBytes(32);
    const dict = r6Dict('secret', '', fileKey);
    await expect(cipherFactoryFor(dict, undefined, '')).rejects.toThrow(/PASSWORD/i);
    const opened = openedByEmptyOwnerPassword(dict);
    expect(opened).toBeDefined();
    const factory = await cipherFactoryFor(opened!, undefined, '');
    expect(Buffer.from(factory.encryptionKey as Uint8Array)).toEqual(fileKey);
  });

  it('gives nothing when the owner password is not empty', () => {
    expect(openedByEmptyOwnerPassword(r6Dict('secret', 'owner', randomBytes(32)))).toBeUndefined();
  });
});
