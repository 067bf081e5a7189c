import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { listEmbeddedFiles } from '../../../../../lambdas/engine/core/embedded-files';
import { tempFiles } from '../../temp-files';
import { addAnnotation, annotationSubtypes, appearance, basePdf, BLUE_BOX, differingShare, pageContent, pageTexts, pixelAt, preflightChecks, previewPixels, PRINT, RED_BOX, renderPage, runFix } from './fixtures';

const files = tempFiles('attachments-remove');

function fileSpec(doc: PDFDocument, fileName: string) {
  const file = doc.context.register(doc.context.stream('hello', { Type: 'EmbeddedFile', Subtype: 'text#2Fplain' } as never));
  return doc.context.register(doc.context.obj({ Type: 'Filespec', F: PDFString.of(fileName), UF: PDFString.of(fileName), EF: { F: file } }));
}

/** Attachments three ways: the EmbeddedFiles name tree (also listed as catalog /AF), page /AF, and a FileAttachment annotation. */
async function withAttachments(opts: { annotation: boolean }): Promise<PDFDocument> {
  const { doc, pages } = await basePdf(2);
  const a = fileSpec(doc, 'a.txt');
  doc.catalog.set(PDFName.of('Names'), doc.context.obj({ EmbeddedFiles: { Names: [PDFString.of('a.txt'), a] } }));
  doc.catalog.set(PDFName.of('AF'), doc.context.obj([a]));
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseAttachments'));
  pages[1]!.node.set(PDFName.of('AF'), doc.context.obj([fileSpec(doc, 'b.txt')]));
  if (opts.annotation) addAnnotation(doc, pages[0]!, { Subtype: 'FileAttachment', Rect: [10, 10, 30, 30], FS: fileSpec(doc, 'c.txt'), Name: 'PushPin' });
  return doc;
}

describe('attachments.remove', () => {
  it('removes the attachment list, associated files and file attachment annotations', async () => {
    const { outcome, doc } = await runFix('attachments.remove', await withAttachments({ annotation: true }));
    expect(outcome).toMatchObject({ count: 3, pages: [1, 2] });
    expect(outcome.detail).toBe('3 attached file(s) removed (1 file attachment annotation(s), 2 associated-files entries)');
    expect(listEmbeddedFiles(doc)).toEqual([]);
    expect(doc.catalog.has(PDFName.of('Names'))).toBe(false);
    expect(doc.catalog.has(PDFName.of('AF'))).toBe(false);
    expect(doc.catalog.has(PDFName.of('PageMode'))).toBe(false);
    expect(doc.getPage(1).node.has(PDFName.of('AF'))).toBe(false);
    expect(annotationSubtypes(doc)).toEqual([[], []]);
  });

  it('keeps other name trees', async () => {
    const doc = await withAttachments({ annotation: false });
    (doc.catalog.lookup(PDFName.of('Names'), PDFDict)).set(PDFName.of('Dests'), doc.context.obj({ Names: [] }));
    const { doc: out } = await runFix('attachments.remove', doc);
    expect(out.catalog.lookup(PDFName.of('Names'), PDFDict).has(PDFName.of('Dests'))).toBe(true);
  });

  it('changes nothing on the page: renders the same, text intact, and resolves the finding', async () => {
    const { before, after } = await runFix('attachments.remove', await withAttachments({ annotation: false }));
    const a = await previewPixels(before, files.dir);
    const b = await previewPixels(after, files.dir);
    expect(b).toHaveLength(2);
    for (let i = 0; i < a.length; i++) expect(differingShare(a[i]!, b[i]!)).toBe(0);
    expect(await pageTexts(after)).toEqual(['Body text of page 1', 'Body text of page 2']);
    expect(await preflightChecks(before, files.dir)).toContain('document.embedded-files');
    expect(await preflightChecks(after, files.dir)).not.toContain('document.embedded-files');
  });

  it('draws a printing attachment icon into the page, so the page prints as before; an icon that does not print goes', async () => {
    const { doc, pages } = await basePdf(1);
    // Printing paperclip (red) at 100–200 × 300–350; a screen-only one (blue, no Print flag) at 100–200 × 200–250.
    addAnnotation(doc, pages[0]!, { Subtype: 'FileAttachment', Rect: [100, 300, 200, 350], F: PRINT, FS: fileSpec(doc, 'p.txt'), AP: { N: appearance(doc, RED_BOX) } });
    addAnnotation(doc, pages[0]!, { Subtype: 'FileAttachment', Rect: [100, 200, 200, 250], F: 0, FS: fileSpec(doc, 's.txt'), AP: { N: appearance(doc, BLUE_BOX) } });
    const { outcome, doc: out, before, after } = await runFix('attachments.remove', doc);
    expect(outcome.detail).toMatch(/2 file attachment annotation\(s\).*; 1 printing icon\(s\) drawn into the page$/);
    expect(annotationSubtypes(out)).toEqual([[]]);
    expect(listEmbeddedFiles(out)).toEqual([]);
    expect(pageContent(out)).toMatch(/Do Q/);
    const [printedBefore, printedAfter] = [await renderPage(before, 1, 'print'), await renderPage(after, 1, 'print')];
    expect(pixelAt(printedAfter, 150, 325)).toEqual([255, 0, 0]);
    expect(differingShare(printedBefore, printedAfter)).toBe(0);
    // On screen the blue icon is gone with its attachment.
    expect(pixelAt(await renderPage(after, 1, 'display'), 150, 225)).toEqual([255, 255, 255]);
  });

  it('is idempotent and skips a file without attachments', async () => {
    const first = await runFix('attachments.remove', await withAttachments({ annotation: true }));
    expect((await runFix('attachments.remove', first.after)).outcome).toMatchObject({ count: 0, pages: [] });
    const { doc } = await basePdf(1);
    doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseAttachments'));
    const plain = await runFix('attachments.remove', doc);
    expect(plain.outcome.count).toBe(0);
    expect(plain.doc.catalog.has(PDFName.of('PageMode'))).toBe(true); // untouched when nothing was removed
  });

  it('copes with a malformed tree and a FileAttachment without a file', async () => {
    const { doc, pages } = await basePdf(1);
    doc.catalog.set(PDFName.of('Names'), doc.context.obj({ EmbeddedFiles: { Kids: [5, 'x'] } }));
    addAnnotation(doc, pages[0]!, { Subtype: 'FileAttachment', Rect: [10, 10, 30, 30] });
    const { outcome } = await runFix('attachments.remove', doc);
    expect(outcome.count).toBe(1);
  });
});
