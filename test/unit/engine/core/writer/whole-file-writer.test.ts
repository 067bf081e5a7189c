import { readFileSync, statSync } from 'node:fs';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfFile } from '../../../../../lambdas/engine/core/load-pdf';
import { writeWholePdf } from '../../../../../lambdas/engine/core/writer/whole-file-writer';
import { tempFiles } from '../../temp-files';
import { expectSoundTables, qpdfCheck, readWithPdfjs } from './written-file';

const files = tempFiles('whole-writer');

async function twoPages(useObjectStreams: boolean): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['first', 'second']) doc.addPage([200, 200]).drawText(text, { x: 20, y: 100, font, size: 12 });
  return files.write(await doc.save({ useObjectStreams }), 'pdf');
}

describe('writeWholePdf', () => {
  it('writes a file whose one classic table points at every object, readable by pdf.js', async () => {
    const { doc } = await openPdfFile(await twoPages(false));
    doc.getPage(1).setMediaBox(0, 0, 300, 300);
    const out = files.path('whole.pdf');
    await writeWholePdf(doc, out);

    expect(expectSoundTables(out)).toHaveLength(1);
    const text = readFileSync(out).toString('latin1');
    expect(text.startsWith('%PDF-1.7\n%')).toBe(true);
    expect(text.match(/%%EOF/g)).toHaveLength(1);
    expect(qpdfCheck(out)).toBe(0);
    const read = await readWithPdfjs(out);
    expect(read.numPages).toBe(2);
    expect((await read.getPage(2)).view).toEqual([0, 0, 300, 300]);
  });

  it('writes packed objects one by one and leaves out the source cross-reference and object streams', async () => {
    const { doc } = await openPdfFile(await twoPages(true));
    const out = files.path('unpacked.pdf');
    await writeWholePdf(doc, out);
    const text = readFileSync(out).toString('latin1');
    expect(text).not.toMatch(/\/Type\s*\/(XRef|ObjStm)/);
    expectSoundTables(out);
    expect((await readWithPdfjs(out)).numPages).toBe(2);
  });

  it('writes a large stream in full without a buffer the size of the file', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([100, 100]);
    const big = new Uint8Array(8 * 1024 * 1024).fill(0x41);
    const dict = doc.context.obj({ Length: big.length });
    const ref = doc.context.register(PDFRawStream.of(dict, big));
    doc.catalog.set(PDFName.of('Big'), ref);
    const out = files.path('big.pdf');
    await writeWholePdf(doc, out);
    expect(statSync(out).size).toBeGreaterThan(big.length);
    const reopened = await openPdfFile(out);
    const stream = reopened.doc.context.lookup(reopened.doc.catalog.get(PDFName.of('Big'))) as PDFRawStream;
    expect(stream.getContents().length).toBe(big.length);
  });
});
