/**
 * Objects pdf-lib's parser refuses, read again leniently
 * (lambdas/engine/core/reader/lenient-parse.ts): each kind of damage found in
 * realworld/pdfjs/poppler-742-0-fuzzed.pdf and poppler-937-0-fuzzed.pdf, in a
 * small file whose document is readable only if the damaged object is.
 */
import { PDFArray, PDFCatalog, PDFDict, PDFName, PDFNumber, PDFPageLeaf, PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { MemorySource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { parseObjectIn } from '../../../../../lambdas/engine/core/reader/object-parse';
import { openLazy, RECOVERED_OBJECTS } from '../../../../../lambdas/engine/core/reader/open-lazy';
import { buildRevisions, pagesDocument, ROOT } from './pdf-builder';

/** pagesDocument(1) with some of its objects replaced. */
const damaged = (objects: Record<number, string>) => buildRevisions([{ objects: { ...pagesDocument(1), ...objects }, trailer: ROOT }]).bytes;

const PAGE = '/Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << >>';

const mediaBox = (page: PDFDict) => (page.lookup(PDFName.of('MediaBox')) as PDFArray).asArray().map((n) => (n as PDFNumber).asNumber());

describe('objects read leniently', () => {
  it('a catalog with a key that is not a name keeps its other entries, and the file says it was repaired', async () => {
    const pdf = await openPdfBytes(damaged({ 1: '<< /Type /Catalog ) /Pages 2 0 R >>' }));
    expect(pdf.doc.catalog).toBeInstanceOf(PDFCatalog);
    expect(pdf.doc.getPageCount()).toBe(1);
    expect(pdf.repairs).toEqual([RECOVERED_OBJECTS]);
  });

  it('a page tree whose /Kids is followed by a stray ] keeps /Count (poppler-937-0-fuzzed.pdf)', () => {
    const opened = openLazy(new MemorySource(damaged({ 2: '<< /Type /Pages /Kids [3 0 R] ] /Count 1 >>' })), { version: '1.7' })!;
    const tree = opened.context.lookup(PDFRef.of(2)) as PDFDict;
    expect(tree.get(PDFName.of('Count'))).toEqual(PDFNumber.of(1));
    expect((tree.get(PDFName.of('Kids')) as PDFArray).size()).toBe(1);
    expect(opened.repairs).toEqual([RECOVERED_OBJECTS]);
  });

  it('junk tokens inside an array are skipped: a stray R, a semicolon, a brace (poppler-742-0-fuzzed.pdf)', async () => {
    const pdf = await openPdfBytes(damaged({ 3: `<< ${PAGE} /MediaBox [0 0 ; 100 } 200 R] >>` }));
    expect(pdf.doc.getPage(0).node).toBeInstanceOf(PDFPageLeaf);
    expect(mediaBox(pdf.doc.getPage(0).node)).toEqual([0, 0, 100, 200]);
    expect(pdf.repairs).toEqual([RECOVERED_OBJECTS]);
  });

  it('a dictionary whose >> is missing ends at endobj; an array whose ] is missing ends at the >> around it', async () => {
    const noClose = await openPdfBytes(damaged({ 3: `<< ${PAGE} /MediaBox [0 0 300 400]` }));
    expect(mediaBox(noClose.doc.getPage(0).node)).toEqual([0, 0, 300, 400]);
    const noBracket = await openPdfBytes(damaged({ 3: `<< ${PAGE} /MediaBox [0 0 300 500 >>` }));
    expect(mediaBox(noBracket.doc.getPage(0).node)).toEqual([0, 0, 300, 500]);
    expect(noBracket.repairs).toEqual([RECOVERED_OBJECTS]);
  });

  it('a stream whose dictionary has junk keeps its data', async () => {
    const pdf = await openPdfBytes(
      buildRevisions([{ objects: { ...pagesDocument(1), 4: { dict: '<< /Foo ) >>', data: '0 0 10 10 re f' } }, trailer: ROOT }]).bytes,
    );
    const contents = pdf.doc.getPage(0).node.Contents()!;
    expect(Buffer.from((contents as unknown as { getContents(): Uint8Array }).getContents()).toString('latin1')).toBe('0 0 10 10 re f');
    expect(pdf.repairs).toEqual([RECOVERED_OBJECTS]);
  });

  it('an object stream member with junk is recovered too, and a body that is no object at all is not', () => {
    const stream = (dict: PDFDict) => dict;
    const context = openLazy(new MemorySource(damaged({})), { version: '1.7' })!.context;
    const member = parseObjectIn(Buffer.from('<< /A 1 ; /B 2 >>'), 0, context, stream);
    expect(member?.recovered).toBe(true);
    expect((member?.object as PDFDict).get(PDFName.of('B'))).toEqual(PDFNumber.of(2));
    expect(parseObjectIn(Buffer.from(';;;'), 0, context, stream)).toBeUndefined();
  });

  it('a sound file is parsed by pdf-lib alone and reports nothing', async () => {
    expect((await openPdfBytes(damaged({}))).repairs).toEqual([]);
  });
});
