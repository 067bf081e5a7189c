import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfFile } from '../../../../../lambdas/engine/core/load-pdf';
import { appendIncrementalUpdate } from '../../../../../lambdas/engine/core/writer/incremental-writer';
import { readOriginalRevision } from '../../../../../lambdas/engine/core/writer/original-revision';
import { trackChanges } from '../../../../../lambdas/engine/core/writer/track-changes';
import { tempFiles } from '../../temp-files';
import { expectSoundTables, qpdfCheck, readWithPdfjs } from './written-file';

const files = tempFiles('incremental-writer');

async function threePages(useObjectStreams: boolean): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['one', 'two', 'three']) doc.addPage([200, 200]).drawText(text, { x: 20, y: 100, font, size: 12 });
  return files.write(await doc.save({ useObjectStreams }), 'pdf');
}

async function updated(path: string) {
  const { doc } = await openPdfFile(path);
  const tracker = trackChanges(doc.context);
  doc.getPage(1).setMediaBox(0, 0, 300, 300);
  doc.catalog.set(PDFName.of('Lang'), PDFString.of('en'));
  const original = (await readOriginalRevision(path, doc.context.largestObjectNumber + 1))!;
  const changes = tracker.changes();
  const out = files.path(`updated-${Math.random()}.pdf`);
  await appendIncrementalUpdate(doc, original, changes, out);
  return { out, changes, original };
}

describe('appendIncrementalUpdate', () => {
  it('keeps the original byte for byte and appends only the changed objects, in a table whose /Prev is the original section', async () => {
    const path = await threePages(false);
    const { out, changes, original } = await updated(path);
    expect(changes.written).toHaveLength(2); // the page and the catalogue
    const before = readFileSync(path);
    const after = readFileSync(out);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const sections = expectSoundTables(out);
    expect(sections).toEqual([sections[0], original.startxref]);

    expect(qpdfCheck(out)).toBe(0);
    const read = await readWithPdfjs(out);
    expect(read.numPages).toBe(3);
    const page = await read.getPage(3);
    expect(page.view).toEqual([0, 0, 200, 200]);
    // pdf.js sees the new page size only by following the update's section.
    expect((await read.getPage(2)).view).toEqual([0, 0, 300, 300]);
    const reopened = await openPdfFile(out);
    expect(reopened.doc.getPage(1).getMediaBox()).toMatchObject({ width: 300, height: 300 });
    expect(reopened.doc.catalog.get(PDFName.of('Lang'))).toEqual(PDFString.of('en'));
  });

  it('appends a cross-reference stream after a file whose newest section is one', async () => {
    const path = await threePages(true);
    const { out, original } = await updated(path);
    expect(original.xrefIsStream).toBe(true);
    const text = readFileSync(out).toString('latin1');
    const start = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
    expect(text.slice(start, start + 60)).toMatch(/^\d+ 0 obj\n<<[^]*\/Type \/XRef/);
    expect(text.slice(start)).toContain(`/Prev ${original.startxref}`);
    expect(qpdfCheck(out)).toBe(0);
    const read = await readWithPdfjs(out);
    expect(read.numPages).toBe(3);
    expect((await read.getPage(2)).view).toEqual([0, 0, 300, 300]);
  });
});
