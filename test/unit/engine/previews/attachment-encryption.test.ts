/**
 * PDFs that encrypt only their attachments (attachment-encryption.ts): their
 * pages are readable without a password, so previews render them; a PDF
 * whose page content is encrypted still needs its password.
 */
import { mkdirSync } from 'node:fs';
import { PDFDocument, PDFHexString, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import type { PreviewOptions } from '../../../../lambdas/engine/previews/options';
import { openDocument, renderPage } from '../../../../lambdas/engine/previews/page-render';
import { tempFiles } from '../temp-files';

const files = tempFiles('attachment-encryption');
const PNG_72: PreviewOptions = { format: 'png', dpi: 72, width: null, height: null, pages: null, quality: 85, background: 'white', thumbnail: false };
const opened: { destroy(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.destroy()));
});

/**
 * A 100 × 100 pt page filled red, with an AES-256 (V 5, R 6) Encrypt dictionary
 * whose password entries match no password (so nothing opens it by password)
 * and whose streams and strings use the given crypt filter.
 */
async function encryptedPdf(streams: 'Identity' | 'StdCF'): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const page = doc.addPage([100, 100]);
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.stream('1 0 0 rg 0 0 100 100 re f')));
  const bytes = (n: number, fill: string) => PDFHexString.of(fill.repeat(n));
  ctx.trailerInfo.Encrypt = ctx.register(
    ctx.obj({
      Filter: 'Standard',
      V: 5,
      R: 6,
      Length: 256,
      P: -4,
      CF: { StdCF: { Type: 'CryptFilter', CFM: 'AESV3', AuthEvent: streams === 'Identity' ? 'EFOpen' : 'DocOpen', Length: 32 } },
      StmF: streams,
      StrF: streams,
      EFF: 'StdCF',
      O: bytes(48, 'a1'),
      U: bytes(48, 'b2'),
      OE: bytes(32, 'c3'),
      UE: bytes(32, 'd4'),
      Perms: bytes(16, 'e5'),
    }),
  );
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of('0123456789abcdef0123456789abcdef'), PDFHexString.of('0123456789abcdef0123456789abcdef')]);
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}

describe('PDFs with encrypted attachments only', () => {
  it('renders their pages without a password', async () => {
    const pdf = await openDocument(await encryptedPdf('Identity'));
    opened.push(pdf);
    const outDir = files.path('identity');
    mkdirSync(outDir);
    const image = await renderPage(pdf, 1, PNG_72, 'preview', outDir);
    const { data } = await sharp(image.path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
  });

  it('still refuses a PDF whose page content is encrypted, with the password sentence', async () => {
    const refusal = openDocument(await encryptedPdf('StdCF'));
    await expect(refusal).rejects.toBeInstanceOf(UnprocessableFileError);
    await expect(refusal).rejects.toThrow(/protected by a password/);
  });
});
