/**
 * AES-256 files (Standard handler, revision 6) whose owner password is empty
 * but whose user password is not: readers that try the empty password as the
 * owner password open them (qpdf: "supplied password is owner password";
 * realworld/pdfjs/pr6531_2.pdf). pdf-lib tries an owner password only when it
 * is not empty, so the file key is recovered here (ISO 32000-2 7.6.4.3.3,
 * algorithms 2.A and 2.B) and handed to pdf-lib as an encryption dictionary
 * whose /U and /UE open with the empty user password and give that same key;
 * everything else (crypt filters, ciphers) stays pdf-lib's.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { PDFHexString, PDFName, type PDFDict } from '@cantoo/pdf-lib';

/** Algorithm 2.B: the revision 6 hash of a password with a salt (and the 48 bytes of /U for the owner). */
export function hashR6(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Buffer {
  let k = createHash('sha256').update(password).update(salt).update(udata).digest();
  for (let round = 0; ; round++) {
    const block = Buffer.concat([password, k, udata]);
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => block));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3]!).update(e).digest();
    // After at least 64 rounds, until the last byte of E is at most (rounds done) − 32.
    if (round + 1 >= 64 && e[e.length - 1]! <= round + 1 - 32) break;
  }
  return k.subarray(0, 32);
}

const aes256 = (decrypt: boolean, key: Uint8Array, data: Uint8Array): Buffer => {
  const make = decrypt ? createDecipheriv : createCipheriv;
  const c = make('aes-256-cbc', key, Buffer.alloc(16));
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
};

const bytesAt = (dict: PDFDict, key: string): Uint8Array | undefined => {
  const v = dict.lookup(PDFName.of(key));
  return v && 'asBytes' in v && typeof v.asBytes === 'function' ? (v.asBytes() as Uint8Array) : undefined;
};

/**
 * A copy of a revision 6 encryption dictionary that the empty user password
 * opens with the same file key, when the empty password is its owner
 * password; undefined otherwise.
 */
export function openedByEmptyOwnerPassword(dict: PDFDict): PDFDict | undefined {
  const r = dict.lookup(PDFName.of('R'));
  if (r?.toString() !== '6') return undefined;
  const o = bytesAt(dict, 'O');
  const u = bytesAt(dict, 'U');
  const oe = bytesAt(dict, 'OE');
  if (!o || !u || !oe || o.length < 48 || u.length < 48 || oe.length < 32) return undefined;
  const empty = new Uint8Array(0);
  const u48 = u.subarray(0, 48);
  if (!hashR6(empty, o.subarray(32, 40), u48).equals(Buffer.from(o.subarray(0, 32)))) return undefined;
  const fileKey = aes256(true, hashR6(empty, o.subarray(40, 48), u48), oe.subarray(0, 32));

  // /U and /UE for the empty user password, with the salts already there.
  const validationSalt = u.subarray(32, 40);
  const keySalt = u.subarray(40, 48);
  const newU = Buffer.concat([hashR6(empty, validationSalt, empty), validationSalt, keySalt]);
  const newUE = aes256(false, hashR6(empty, keySalt, empty), fileKey);
  const copy = dict.clone();
  copy.set(PDFName.of('U'), PDFHexString.fromBytes(newU));
  copy.set(PDFName.of('UE'), PDFHexString.fromBytes(newUE));
  return copy;
}
