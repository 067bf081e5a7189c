import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFName, PDFString } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLiteral } from '../../../../lambdas/engine/core/decrypted-strings';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { qpdfCheck, runFix } from './fixtures-common';

// The Standard security handler, revision 2 (RC4, 40-bit key; ISO 32000-1 7.6.3), just enough to
// write an owner-password-only file by hand: the way realworld/pdfjs/bug900822.pdf is protected.
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const pad = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
const octal = (bytes: Buffer) => [...bytes].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');

/** A one-page PDF protected by an owner password only, whose Info /Title decrypts to `title`. */
function ownerProtectedPdf(title: string): Uint8Array {
  const id = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const permissions = -44;
  const o = rc4(md5(pad('owner')).subarray(0, 5), pad(''));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(pad(''), o, p, id).subarray(0, 5);
  const u = rc4(key, PAD);
  // Object 4 (the Info dictionary), generation 0.
  const objectKey = md5(key, Buffer.from([4, 0, 0, 0, 0])).subarray(0, 10);
  const encryptedTitle = rc4(objectKey, Buffer.from(title, 'latin1'));
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Resources << >> >> endobj',
    `4 0 obj << /Title (${octal(encryptedTitle)}) /Author <${rc4(objectKey, Buffer.from('Proofline', 'latin1')).toString('hex')}> >> endobj`,
    `5 0 obj << /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${permissions} >> endobj`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const obj of objects) {
    offsets.push(body.length);
    body += `${obj}\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((off) => `${String(off).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R /Encrypt 5 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

const infoOf = (doc: Awaited<ReturnType<typeof openPdfBytes>>['doc']) => doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);

// Parentheses out of balance, a backslash and a carriage return: every byte that means something in a literal string.
const TITLE = 'Job 7) \\ (draft\r';

describe('strings of an encrypted file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proofline-decrypted-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('escapes the characters that would change a literal string, and nothing else', () => {
    expect(escapeLiteral('a(b)c\\d\re\nf\u00e9')).toBe('a\\(b\\)c\\\\d\\re\\nf\u00e9');
    expect(PDFString.of(escapeLiteral(TITLE)).decodeText()).toBe(TITLE);
  });

  it('read as the bytes they decrypt to', async () => {
    const { doc, encryption } = await openPdfBytes(ownerProtectedPdf(TITLE));
    expect(encryption?.revision).toBe(2);
    const info = infoOf(doc);
    expect(info.lookup(PDFName.of('Title'), PDFString).decodeText()).toBe(TITLE);
    expect(doc.getAuthor()).toBe('Proofline');
  });

  it('survive a fix and a save: the dictionary that holds them stays whole (bug900822: qpdf "unexpected )" after boxes.normalize)', async () => {
    const run = await runFix('boxes.normalize', ownerProtectedPdf(TITLE));
    expect(run.outcome.count).toBe(1);
    const info = infoOf(run.doc);
    expect(info.lookup(PDFName.of('Title'), PDFString).decodeText()).toBe(TITLE);
    expect(run.doc.getAuthor()).toBe('Proofline');
    expect(await qpdfCheck(run.after, dir)).toBe(0);
  });
});
