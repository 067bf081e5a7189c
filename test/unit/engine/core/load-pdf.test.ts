import { describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { openPdfBytes, openPdfFile } from '../../../../lambdas/engine/core/load-pdf';
import { buildPdf, corruptPdf, garbageAfterHeader, pngBytes, truncatedPdf } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';
import { buildRevisions, pagesDocument, ROOT } from './reader/pdf-builder';
import { rawPdf, zeroBomb } from '../guard/hostile-pdfs';
import { PDFDocument, PDFStream } from '@cantoo/pdf-lib';
import { streamBytes } from '../../../../lambdas/engine/core/pdf-objects';

const files = tempFiles('load');

async function refusal(bytes: Uint8Array): Promise<UnprocessableFileError> {
  const err = await openPdfBytes(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnprocessableFileError);
  return err as UnprocessableFileError;
}

describe('openPdfFile', () => {
  it('opens a well-formed PDF and reads its header', async () => {
    const pdf = await openPdfFile(files.write(await buildPdf({ pages: 3 }), 'pdf'));
    expect(pdf.doc.getPageCount()).toBe(3);
    expect(pdf.header).toMatchObject({ offset: 0, version: '1.7', binaryComment: true });
    expect(pdf.encryption).toBeNull();
  });

  it('decrypts a PDF that has only an owner password and reports its encryption', async () => {
    const pdf = await openPdfBytes(await buildPdf({ pages: 2, encrypt: { ownerPassword: 'owner' } }));
    expect(pdf.doc.getPageCount()).toBe(2);
    expect(pdf.encryption).toMatchObject({ filter: 'Standard' });
  });

  it('refuses a PDF that needs a password to open, saying so', async () => {
    const err = await refusal(await buildPdf({ encrypt: { userPassword: 'secret', ownerPassword: 'owner' } }));
    expect(err.message).toMatch(/password/);
  });

  it('reads a file whose header version is not digits (%PDF-a.4), reporting the header as written', async () => {
    const bytes = await buildPdf({ pages: 2, version: '1.4' });
    const at = Buffer.from(bytes).indexOf('%PDF-1.4');
    bytes.set(Buffer.from('%PDF-a.4'), at);
    const pdf = await openPdfBytes(bytes);
    expect(pdf.doc.getPageCount()).toBe(2);
    expect(pdf.header.line).toBe('%PDF-a.4');
    expect(Buffer.from(pdf.bytes!).subarray(0, 8).toString('latin1')).toBe('%PDF-a.4');
  });

  it('refuses a file without a PDF header', async () => {
    expect((await refusal(await pngBytes())).message).toMatch(/not a PDF/);
  });

  // realworld/pdfjs/bug1606566.pdf: poppler and qpdf read a file without a header when its body is a PDF's.
  it('reads a PDF body without a %PDF- header, saying so, and refuses bytes that only look like one', async () => {
    const whole = buildRevisions([{ objects: pagesDocument(2), trailer: ROOT }]).bytes;
    // The header line goes; the cross-reference offsets are then wrong by its length, as in the fixture.
    const headerless = whole.subarray(whole.indexOf('\n') + 1);
    const pdf = await openPdfBytes(headerless);
    expect(pdf.doc.getPageCount()).toBe(2);
    expect(pdf.header.offset).toBe(-1);
    expect(pdf.repairs[0]).toMatch(/did not start with a %PDF- header/);
    expect(pdf.doc.context.header.toString()).toMatch(/^%PDF-1\.7/);
    // An object header but no catalog with pages: not a PDF, and no whole-file parse is tried.
    expect((await refusal(Buffer.from('1 0 obj\n(just a string)\nendobj\n', 'latin1'))).message).toMatch(/not a PDF/);
    // A PDF body that starts later than the first 1024 bytes is not looked for.
    expect((await refusal(Buffer.concat([Buffer.alloc(2000, 0x41), headerless]))).message).toMatch(/not a PDF/);
  });

  it('refuses a truncated PDF', async () => {
    expect((await refusal(await truncatedPdf())).message).toMatch(/truncated|damaged/);
  });

  it('refuses random bytes after a PDF header', async () => {
    await refusal(garbageAfterHeader());
  });

  it('refuses a PDF whose page tree is destroyed', async () => {
    await refusal(corruptPdf(await buildPdf({ pages: 2 })));
  });

  it('refuses megabytes of random bytes after a PDF header quickly', async () => {
    const started = Date.now();
    await refusal(garbageAfterHeader(20 * 1024 * 1024));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a PDF with junk appended after its last %%EOF, without crawling through the junk', async () => {
    const junk = Buffer.alloc(20 * 1024 * 1024, 0x31); // "1111…": the worst case for pdf-lib's recovery
    const started = Date.now();
    const pdf = await openPdfBytes(Buffer.concat([await buildPdf({ pages: 2 }), junk]));
    expect(pdf.doc.getPageCount()).toBe(2);
    // Its startxref is found before the last %%EOF: nothing needed repairing.
    expect(pdf.repairs).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('never hangs or throws another error type on mangled PDFs', async () => {
    const good = await buildPdf({ pages: 2, documentJavaScript: 'x', pdfa: { part: 2, conformance: 'B' } });
    for (let seed = 1; seed <= 25; seed++) {
      const bytes = Buffer.from(good);
      // Deterministic damage: overwrite a run of bytes at a seed-dependent place.
      const at = (seed * 7919) % bytes.length;
      for (let i = 0; i < 64 && at + i < bytes.length; i++) bytes[at + i] = (seed * 31 + i * 17) & 0xff;
      const outcome = await openPdfBytes(bytes).then(
        () => 'opened',
        (e: unknown) => (e instanceof UnprocessableFileError ? 'refused' : `crashed: ${String(e)}`),
      );
      expect(outcome).toMatch(/^(opened|refused)$/);
    }
  });
});

describe('openPdfFile, lazily', () => {
  it('reads the file through a source, without holding its bytes, unless the whole file is asked for', async () => {
    const bytes = await buildPdf({ pages: 3 });
    const path = files.write(bytes, 'pdf');
    const lazy = await openPdfFile(path);
    expect(lazy.bytes).toBeUndefined();
    expect(lazy.size).toBe(bytes.length);
    expect(lazy.doc.getPageCount()).toBe(3);
    expect(lazy.repairs).toEqual([]);
    lazy.source.close();
    const whole = await openPdfFile(path, { wholeFile: true });
    expect(Buffer.from(whole.bytes!)).toEqual(Buffer.from(bytes));
    // The objects are read from that same buffer.
    expect(whole.source.read(0, 5).buffer).toBe(whole.bytes!.buffer);
  });

  it('says what it repaired: a file whose cross-reference offsets are all wrong', async () => {
    const text = Buffer.from(await buildPdf({ pages: 2 })).toString('latin1');
    const shifted = text.replace(/^(\d{10}) 00000 n/gm, (_, off: string) => `${String(Number(off) + 7).padStart(10, '0')} 00000 n`);
    const pdf = await openPdfFile(files.write(Buffer.from(shifted, 'latin1'), 'pdf'));
    expect(pdf.doc.getPageCount()).toBe(2);
    expect(pdf.repairs).toEqual(["The cross-reference table was damaged and was rebuilt by reading the file's objects."]);
  });

  it('decrypts an owner-password-only file read lazily', async () => {
    const pdf = await openPdfFile(files.write(await buildPdf({ pages: 2, encrypt: { ownerPassword: 'owner' } }), 'pdf'));
    expect(pdf.encryption).toMatchObject({ filter: 'Standard' });
    const content = pdf.doc.getPage(0).node.Contents();
    expect(content).toBeInstanceOf(PDFStream);
    // Decrypted, the Flate data inflates.
    expect(streamBytes(content as PDFStream)).not.toBeNull();
  });
});

describe('encryption of attached files only', () => {
  const encrypted = (filters: string) =>
    buildRevisions([
      {
        objects: {
          ...pagesDocument(1),
          20: `<< /Filter /Standard /V 4 /R 4 /Length 128 /P -4 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /CF << /StdCF << /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >> ${filters} >>`,
        },
        trailer: `${ROOT} /Encrypt 20 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]`,
      },
    ]).bytes;

  it('opens a file whose streams and strings are not encrypted (Identity) though its password is unknown', async () => {
    const pdf = await openPdfBytes(encrypted('/StmF /Identity /StrF /Identity /EFF /StdCF'));
    expect(pdf.doc.getPageCount()).toBe(1);
    expect(pdf.encryption).toMatchObject({ filter: 'Standard', version: 4 });
  });

  it('still refuses one whose streams need the password', async () => {
    expect((await refusal(encrypted('/StmF /StdCF /StrF /StdCF'))).message).toMatch(/password/);
  });
});

describe('openPdfBytes on hostile structure', () => {
  it('reads objects from object streams and skips a cross-reference stream’s entries (a file pdf-lib saved compactly)', async () => {
    const doc = await PDFDocument.load(await buildPdf({ pages: 3 }));
    doc.setTitle('Compact');
    const compact = await doc.save({ useObjectStreams: true });
    expect(Buffer.from(compact).includes(Buffer.from('/ObjStm'))).toBe(true);
    const pdf = await openPdfBytes(compact);
    expect(pdf.doc.getPageCount()).toBe(3);
    expect(pdf.doc.getTitle()).toBe('Compact');
  });

  it('opens a file whose object stream inflates to 1.5 GB in seconds, without the objects the bomb held', async () => {
    const started = Date.now();
    const pdf = await openPdfBytes(
      rawPdf({
        1: '<< /Type /Catalog /Pages 2 0 R >>',
        2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
        5: { dict: '<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', data: zeroBomb(1500) },
      }),
    );
    expect(pdf.doc.getPageCount()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('removes page tree references back to an ancestor before counting pages', async () => {
    const pdf = await openPdfBytes(
      rawPdf({
        1: '<< /Type /Catalog /Pages 2 0 R >>',
        2: '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
        3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
        5: '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 5 0 R 6 0 R] /Count 2 >>',
        6: '<< /Type /Page /Parent 5 0 R /MediaBox [0 0 200 200] >>',
      }),
    );
    expect(pdf.doc.getPages().map((p) => p.getWidth())).toEqual([595, 200]);
  });

  it('gives a page tree node without Kids none, instead of failing on it', async () => {
    const pdf = await openPdfBytes(
      rawPdf({
        1: '<< /Type /Catalog /Pages 2 0 R >>',
        2: '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
        3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
        4: '<< /Type /Pages /Parent 2 0 R /Count 5 >>',
      }),
    );
    expect(pdf.doc.getPageCount()).toBe(1);
  });

  it('refuses as damaged a page tree so deep that walking it overflows the stack', async () => {
    const objects: Record<number, string> = { 1: '<< /Type /Catalog /Pages 2 0 R >>' };
    for (let n = 2; n < 100_002; n++) objects[n] = `<< /Type /Pages /Kids [${n + 1} 0 R] /Count 1 >>`;
    objects[100_002] = '<< /Type /Page /MediaBox [0 0 595 842] >>';
    expect((await refusal(rawPdf(objects))).message).toMatch(/damaged/);
  });
});
