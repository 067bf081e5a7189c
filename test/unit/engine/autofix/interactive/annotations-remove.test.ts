import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { tempFiles } from '../../temp-files';
import { addAnnotation, annotationSubtypes, appearance, basePdf, pageTexts, pixelAt, preflightChecks, previewPixels, PRINT, RED_BOX, renderPage, runFix } from './fixtures';

const files = tempFiles('annotations-remove');

/** Two pages: a printing Square with a Popup and a Link on page 1, a form field on page 2, tagged with an OBJR for the Square. */
async function annotated(): Promise<PDFDocument> {
  const { doc, pages } = await basePdf(2);
  const square = addAnnotation(doc, pages[0]!, { Subtype: 'Square', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
  const popup = addAnnotation(doc, pages[0]!, { Subtype: 'Popup', Rect: [200, 300, 300, 400], Parent: square });
  (doc.context.lookup(square) as PDFDict).set(PDFName.of('Popup'), popup);
  addAnnotation(doc, pages[0]!, { Subtype: 'Link', Rect: [60, 755, 200, 775], A: { S: 'URI', URI: 'https://example.com/' } });
  const field = addAnnotation(doc, pages[1]!, { Subtype: 'Widget', FT: 'Tx', T: 'name', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [field] }));
  const elem = doc.context.register(doc.context.obj({ Type: 'StructElem', S: 'Annot', K: doc.context.obj({ Type: 'OBJR', Obj: square }) }));
  doc.catalog.set(PDFName.of('StructTreeRoot'), doc.context.obj({ Type: 'StructTreeRoot', K: [elem] }));
  return doc;
}

describe('annotations.remove', () => {
  it('removes annotations and their popups without drawing them, keeping links and form fields by default', async () => {
    const { outcome, doc, after } = await runFix('annotations.remove', await annotated());
    expect(outcome).toMatchObject({ count: 2, pages: [1] });
    expect(annotationSubtypes(doc)).toEqual([['Link'], ['Widget']]);
    expect(pixelAt(await renderPage(after), 150, 325)).toEqual([255, 255, 255]);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(true);
  });

  it('leaves no structure reference to a removed annotation', async () => {
    const { outcome, doc } = await runFix('annotations.remove', await annotated());
    expect(outcome.detail).toMatch(/1 structure reference/);
    const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
    const elem = root.lookup(PDFName.of('K'), PDFArray).lookup(0, PDFDict);
    expect(elem.has(PDFName.of('K'))).toBe(false);
  });

  it('removes links with keepLinks false, and form widgets with their fields with forms true', async () => {
    const { outcome, doc } = await runFix('annotations.remove', await annotated(), { keepLinks: false, forms: true });
    expect(outcome).toMatchObject({ count: 4, pages: [1, 2] });
    expect(outcome.detail).toMatch(/1 form field\(s\) left without widgets removed/);
    expect(annotationSubtypes(doc)).toEqual([[], []]);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(false);
  });

  it('keeps the page content, its text and its rendering, and resolves the annotation finding', async () => {
    const { before, after } = await runFix('annotations.remove', await annotated());
    expect(await pageTexts(after)).toEqual(['Body text of page 1', 'Body text of page 2']);
    expect(await previewPixels(after, files.dir)).toHaveLength(2);
    expect(await preflightChecks(before, files.dir)).toContain('annotations.in-trim');
    // The Widget on page 2 still prints (a form field): only forms: true or forms.flatten handles it.
    const findings = await preflightChecks(after, files.dir);
    expect(findings.filter((c) => c === 'annotations.in-trim').length).toBe(1);
  });

  it('is idempotent and reports nothing to do on a page with only links', async () => {
    const first = await runFix('annotations.remove', await annotated());
    const second = await runFix('annotations.remove', first.after);
    expect(second.outcome).toMatchObject({ count: 0, pages: [] });
    const { doc } = await basePdf(1);
    expect((await runFix('annotations.remove', doc)).outcome.count).toBe(0);
  });

  it('skips what is not an annotation dictionary', async () => {
    const { doc, pages } = await basePdf(1);
    pages[0]!.node.set(PDFName.of('Annots'), doc.context.obj([3, 'x', null, doc.context.obj({ Subtype: 'Text', Rect: [0, 0, 1, 1] })]));
    const { outcome, doc: out } = await runFix('annotations.remove', doc);
    expect(outcome.count).toBe(1);
    expect(out.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).size()).toBe(3);
  });
});
