import { PDFArray, PDFContext, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFParser, PDFRawStream, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { cipherFactoryFor, fileIdBytes } from '../../../../../lambdas/engine/core/reader/cipher';
import { decodeStream } from '../../../../../lambdas/engine/core/stream-decode';

describe('fileIdBytes', () => {
  const context = PDFContext.create();
  it('reads the first identifier, and an empty one when /ID is malformed', () => {
    expect([...fileIdBytes(context.obj([PDFHexString.of('0a0b'), PDFHexString.of('0c')]))]).toEqual([10, 11]);
    expect([...fileIdBytes(PDFString.of('ab'))]).toEqual([97, 98]);
    expect(fileIdBytes(context.obj([PDFNumber.of(3)]))).toHaveLength(0);
    expect(fileIdBytes(PDFName.of('X'))).toHaveLength(0);
    expect(fileIdBytes(undefined)).toHaveLength(0);
  });
});

describe('cipherFactoryFor', () => {
  it('puts pdf-lib’s parser back when the password is refused', async () => {
    const original = PDFParser.forBytesWithOptions;
    const context = PDFContext.create();
    const dict = context.obj({ Filter: 'Standard', V: 2, R: 3, Length: 128, P: -4, O: PDFHexString.of('ab'.repeat(32)), U: PDFHexString.of('cd'.repeat(32)) }) as PDFDict;
    await expect(cipherFactoryFor(dict, undefined, '')).rejects.toThrow(/PASSWORD/i);
    expect(PDFParser.forBytesWithOptions).toBe(original);
  });
});

describe('decryption after the encryption dictionary is gone from the document', () => {
  /**
   * An AES-256 file whose crypt filter /StdCF is an indirect object (as in
   * issue7665.pdf): pdf-lib writes it direct, so it is moved to an object of
   * its own added by an incremental update, padded to keep offsets.
   */
  async function aesWithIndirectCryptFilters(): Promise<{ bytes: Uint8Array; encryptRef: PDFRef; filtersRef: PDFRef }> {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]).drawRectangle({ x: 10, y: 10, width: 50, height: 50 });
    doc.encrypt({ userPassword: '', ownerPassword: 'owner', permissions: { printing: 'highResolution' } } as never);
    let text = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
    const direct = /\/StdCF <<[^>]*>>/.exec(text)![0];
    const size = Number(/\/Size (\d+)/.exec(text)![1]);
    text = text.replace(direct, `/StdCF ${size} 0 R`.padEnd(direct.length, ' '));
    const encryptNum = Number(/\/Encrypt (\d+) 0 R/.exec(text)![1]);
    const root = /\/Root (\d+ \d+ R)/.exec(text)![1];
    const id = /\/ID (\[[^\]]*\])/.exec(text)![1];
    const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
    const at = text.length;
    text += `${size} 0 obj\n<< /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >>\nendobj\n`;
    const xref = text.length;
    text += `xref\n${size} 1\n${String(at).padStart(10, '0')} 00000 n\r\ntrailer\n<< /Size ${size + 1} /Root ${root} /Encrypt ${encryptNum} 0 R /ID ${id} /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
    return { bytes: new Uint8Array(Buffer.from(text, 'latin1')), encryptRef: PDFRef.of(encryptNum), filtersRef: PDFRef.of(size) };
  }

  it('still decrypts streams read after the document dropped its (now unreferenced) encryption objects', async () => {
    const { bytes, encryptRef, filtersRef } = await aesWithIndirectCryptFilters();
    const pdf = await openPdfBytes(bytes);
    expect(pdf.encryption).toMatchObject({ revision: 6 });
    expect(pdf.repairs).toEqual([]);
    // What autofix does before writing: objects nothing refers to any more go.
    pdf.doc.context.delete(encryptRef);
    pdf.doc.context.delete(filtersRef);
    const contents = pdf.doc.getPage(0).node.Contents();
    const stream = (contents instanceof PDFArray ? contents.lookup(0) : contents) as PDFRawStream;
    const decoded = decodeStream(stream);
    expect(decoded.bytes).not.toBeNull();
    expect(Buffer.from(decoded.bytes!).toString('latin1')).toMatch(/^q\n1 0 0 1 10 60 cm\n/);
  });
});
