import { readFileSync } from 'node:fs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfFile } from '../../../../../lambdas/engine/core/load-pdf';
import { linearizationRefusal, writeLinearizedPdf, type LinearizeOptions } from '../../../../../lambdas/engine/core/writer/linearized-writer';
import { addPage, busyContent, imageXObject, pageContents, stream, withFont } from '../../optimize/fixtures';
import { tempFiles } from '../../temp-files';
import { pdfinfoOptimized, qpdfCheck, qpdfCheckLinearization, readWithPdfjs } from './written-file';

const files = tempFiles('linearized-writer');

const MODES: [string, LinearizeOptions][] = [
  ['classic tables', {}],
  ['object streams', { objectStreams: { flateLevel: 9 } }],
];

/**
 * Writes the document linearized and holds the result to what qpdf, Poppler
 * and our reader say of it: linearized without a single warning, sound, and
 * the same pages with the same content as the source.
 */
async function linearized(source: PDFDocument, options: LinearizeOptions): Promise<string> {
  const inPath = files.write(await source.save({ useObjectStreams: false }), 'pdf');
  const expected = await pageContents(readFileSync(inPath));
  const { doc, source: file } = await openPdfFile(inPath);
  const out = `${inPath}.lin.pdf`;
  await writeLinearizedPdf(doc, out, options);
  file.close();

  expect(qpdfCheckLinearization(out)).toEqual({ status: 0, output: `${out}: no linearization errors` });
  expect(qpdfCheck(out)).toBe(0);
  expect(pdfinfoOptimized(out)).toBe('yes');
  expect(await pageContents(readFileSync(out))).toEqual(expected);
  expect((await readWithPdfjs(out)).numPages).toBe(expected.length);
  return out;
}

/** Pages whose content names its page, Helvetica shared by all, and an image shared by the pages listed. */
async function sharedResources(pageCount: number, imageOn: number[]): Promise<PDFDocument> {
  const { doc, font } = await withFont();
  const image = await imageXObject(doc, { width: 64, height: 64, space: 'DeviceRGB', filter: 'FlateDecode' });
  for (let i = 0; i < pageCount; i++) {
    const draw = imageOn.includes(i) ? 'q 100 0 0 100 50 50 cm /Im Do Q\n' : '';
    addPage(doc, stream(doc, `${draw}${busyContent(i)}`, 6), font, imageOn.includes(i) ? { Im: image } : {});
  }
  return doc;
}

describe.each(MODES)('writeLinearizedPdf with %s', (_, options) => {
  it('linearizes a one-page document', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), 6), font);
    const out = await linearized(doc, options);
    const text = readFileSync(out).toString('latin1');
    // The parameter dictionary is the first object, within the first 1024 bytes (F.3.2).
    expect(text.slice(0, 1024)).toMatch(/^%PDF-1\.\d\n%[^\n]*\n\d+ 0 obj\n<< \/Linearized 1 \/L \d+ \/H \[ \d+ \d+ \] \/O \d+ \/E \d+ \/N 1 \/T \d+ >>/);
    expect(Number(/\/L (\d+)/.exec(text)![1])).toBe(text.length);
  });

  it('linearizes pages sharing a font and an image, the image also on the first page', async () => {
    await linearized(await sharedResources(5, [0, 2, 4]), options);
  });

  it('linearizes pages sharing an image the first page does not use', async () => {
    const out = await linearized(await sharedResources(4, [1, 2, 3]), options);
    // The shared image sits after the pages that use it only privately (part 8), not in the first page's section.
    const text = readFileSync(out).toString('latin1');
    expect(text.indexOf('/Subtype /Image')).toBeGreaterThan(Number(/\/E (\d+)/.exec(text)![1]));
  });

  it('moves resources and boxes inherited from the page tree onto the pages', async () => {
    const { doc, font } = await withFont();
    for (let i = 0; i < 3; i++) addPage(doc, stream(doc, busyContent(i), 6), font);
    const tree = doc.catalog.lookup(PDFName.of('Pages'), PDFDict);
    tree.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: font } }));
    tree.set(PDFName.of('Rotate'), doc.context.obj(90));
    for (const page of doc.getPages()) {
      page.node.delete(PDFName.of('Resources'));
      page.node.delete(PDFName.of('Rotate'));
    }
    const out = await linearized(doc, options);
    const { doc: read, source } = await openPdfFile(out);
    for (const page of read.getPages()) {
      expect(page.node.get(PDFName.of('Resources'))).toBeInstanceOf(PDFRef);
      expect(page.getRotation().angle).toBe(90);
    }
    expect(read.catalog.lookup(PDFName.of('Pages'), PDFDict).has(PDFName.of('Resources'))).toBe(false);
    source.close();
  });

  it('places outlines opened with the document in the first page section and describes them in the hint stream', async () => {
    for (const pageMode of ['UseOutlines', 'UseNone']) {
      const doc = await sharedResources(3, [1]);
      const pages = doc.getPages().map((p) => p.ref);
      const outlines = doc.context.register(doc.context.obj({ Type: 'Outlines', Count: 2 }));
      const items = pages.slice(1).map((page, i) => doc.context.register(doc.context.obj({ Title: `Page ${i + 2}`, Parent: outlines, Dest: [page, 'Fit'] } as never)));
      const [first, last] = items as [PDFRef, PDFRef];
      doc.context.lookup(first, PDFDict).set(PDFName.of('Next'), last);
      doc.context.lookup(last, PDFDict).set(PDFName.of('Prev'), first);
      const root = doc.context.lookup(outlines, PDFDict);
      root.set(PDFName.of('First'), first);
      root.set(PDFName.of('Last'), last);
      doc.catalog.set(PDFName.of('Outlines'), outlines);
      doc.catalog.set(PDFName.of('PageMode'), PDFName.of(pageMode));
      const out = await linearized(doc, options);
      const { doc: read, source } = await openPdfFile(out);
      const dest = read.catalog.lookup(PDFName.of('Outlines'), PDFDict).lookup(PDFName.of('First'), PDFDict).lookup(PDFName.of('Dest'), PDFArray);
      expect(dest.get(0)).toBe(read.getPages()[1]!.ref);
      source.close();
    }
  });
});

describe('linearizationRefusal', () => {
  it('refuses a document without pages and one whose page tree lists a page twice', async () => {
    expect(linearizationRefusal(await PDFDocument.create())).toMatch(/no pages/);
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), 6), font);
    const kids = doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray);
    kids.push(kids.get(0));
    expect(linearizationRefusal(doc)).toMatch(/more than once/);
    expect(linearizationRefusal(await sharedResources(2, [0]))).toBeNull();
  });
});
