import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { tempFiles } from '../../temp-files';
import {
  addAnnotation,
  annotationSubtypes,
  appearance,
  basePdf,
  BLUE_BOX,
  differingShare,
  HIDDEN,
  NO_VIEW,
  pageContent,
  pageTexts,
  pixelAt,
  preflightChecks,
  previewPixels,
  PRINT,
  RED_BOX,
  renderPage,
  runFix,
} from './fixtures';

const files = tempFiles('annotations-flatten');

/**
 * One page with one annotation of each kind the fix tells apart:
 * a printing Square (red, plain placement), a printing Stamp whose appearance
 * is turned by its Matrix (blue), a printing Circle with appearance states (green
 * "On" chosen by /AS), a screen-only Text note with its Popup, a Hidden one, a
 * print-only (NoView) one, a printing FreeText without appearance, a Link, and a
 * state dictionary without the current state.
 */
async function mixedPage(): Promise<{ doc: PDFDocument; page: PDFPage }> {
  const { doc, pages } = await basePdf(1);
  const page = pages[0]!;
  addAnnotation(doc, page, { Subtype: 'Square', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
  // BBox 100 × 50 turned 90° by the Matrix: a 50 × 100 box, mapped onto a 50 × 100 Rect.
  addAnnotation(doc, page, { Subtype: 'Stamp', Rect: [300, 400, 350, 500], F: PRINT, AP: { N: appearance(doc, BLUE_BOX, { matrix: [0, 1, -1, 0, 0, 0] }) } });
  const on = appearance(doc, '0 0.8 0 rg 0 0 100 50 re f');
  const off = appearance(doc, '0.5 0.5 0.5 rg 0 0 100 50 re f');
  addAnnotation(doc, page, { Subtype: 'Circle', Rect: [400, 100, 500, 150], F: PRINT, AS: 'On', AP: { N: { On: on, Off: off } } });
  const note = addAnnotation(doc, page, { Subtype: 'Text', Rect: [50, 50, 70, 70], F: 0, AP: { N: appearance(doc, RED_BOX) } });
  const popup = addAnnotation(doc, page, { Subtype: 'Popup', Rect: [80, 50, 200, 120], Parent: note });
  (doc.context.lookup(note) as PDFDict).set(PDFName.of('Popup'), popup);
  addAnnotation(doc, page, { Subtype: 'Square', Rect: [100, 200, 200, 250], F: PRINT | HIDDEN, AP: { N: appearance(doc, RED_BOX) } });
  addAnnotation(doc, page, { Subtype: 'Stamp', Rect: [100, 100, 200, 150], F: PRINT | NO_VIEW, AP: { N: appearance(doc, BLUE_BOX) } });
  addAnnotation(doc, page, { Subtype: 'FreeText', Rect: [300, 200, 400, 250], F: PRINT, DA: '/Helv 10 Tf 0 g', Contents: 'x' });
  addAnnotation(doc, page, { Subtype: 'Link', Rect: [60, 755, 200, 775], Border: [0, 0, 0], A: { S: 'URI', URI: 'https://example.com/' } });
  addAnnotation(doc, page, { Subtype: 'Square', Rect: [300, 100, 350, 150], F: PRINT, AS: 'Off', AP: { N: { On: on } } });
  return { doc, page };
}

describe('annotations.flatten', () => {
  it('draws printing annotations into the page, removes them and those that never print, and keeps the rest', async () => {
    const { doc } = await mixedPage();
    const { outcome, doc: out } = await runFix('annotations.flatten', doc);
    // Drawn: Square, Stamp, Circle (3). Removed without drawing: Text note, Hidden, empty state (3), and the note's Popup.
    expect(outcome.count).toBe(7);
    expect(outcome.pages).toEqual([1]);
    expect(outcome.detail).toMatch(/^3 annotation\(s\) drawn into the page and removed, 3 that would not print removed, 1 popup/);
    expect(outcome.detail).toMatch(/1 printing annotation\(s\) without a usable appearance left in place/);
    expect(outcome.detail).toMatch(/1 print-only \(NoView\) annotation\(s\) left in place/);
    expect(annotationSubtypes(out)).toEqual([['Stamp', 'FreeText', 'Link']]);
  });

  it('places each appearance by ISO 32000 12.5.5: BBox through Matrix, then onto the Rect', async () => {
    const { doc } = await mixedPage();
    const { doc: out, after } = await runFix('annotations.flatten', doc);
    const content = pageContent(out);
    // The plain one scales 1:1 and moves to the Rect's corner; the turned one's box is [-50 0 0 100], moved by 350 400.
    expect(content).toContain('q 1 0 0 1 100 300 cm /Fl1 Do Q');
    expect(content).toContain('q 1 0 0 1 350 400 cm /Fl2 Do Q');
    expect(content).toContain('q 1 0 0 1 400 100 cm /Fl3 Do Q');
    const shown = await renderPage(after, 1, 'display');
    expect(pixelAt(shown, 150, 325)).toEqual([255, 0, 0]); // red square
    expect(pixelAt(shown, 325, 450)).toEqual([0, 0, 255]); // turned stamp fills its whole Rect
    expect(pixelAt(shown, 450, 125)).toEqual([0, 204, 0]); // the "On" state
    expect(pixelAt(shown, 150, 225)).toEqual([255, 255, 255]); // the hidden one is not drawn
    expect(pixelAt(shown, 60, 60)).toEqual([255, 255, 255]); // nor the screen-only note
  });

  it('prints as before: pdfjs in print intent renders the same page before and after', async () => {
    const { doc } = await mixedPage();
    const { before, after } = await runFix('annotations.flatten', doc);
    const printedBefore = await renderPage(before, 1, 'print');
    const printedAfter = await renderPage(after, 1, 'print');
    expect(differingShare(printedBefore, printedAfter)).toBeLessThan(0.0005);
    // and the printed page really carries the annotations (the comparison is not between two blank pages)
    expect(pixelAt(printedAfter, 150, 325)).toEqual([255, 0, 0]);
    expect(pixelAt(printedAfter, 150, 125)).toEqual([0, 0, 255]); // the print-only stamp, still an annotation, still prints
  });

  it('keeps the body text extractable and the page renderable by the previews engine', async () => {
    const { doc } = await mixedPage();
    const { after } = await runFix('annotations.flatten', doc);
    expect((await pageTexts(after))[0]).toContain('Body text of page 1');
    const [page] = await previewPixels(after, files.dir);
    expect(page!.width).toBe(595);
  });

  it('no longer reports printing annotations on the finished page', async () => {
    const { doc, pages } = await basePdf(1);
    addAnnotation(doc, pages[0]!, { Subtype: 'Square', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
    const { before, after } = await runFix('annotations.flatten', doc);
    expect(await preflightChecks(before, files.dir)).toContain('annotations.in-trim');
    expect(await preflightChecks(after, files.dir)).not.toContain('annotations.in-trim');
  });

  it('is idempotent: a second run changes nothing and says what it leaves', async () => {
    const { doc } = await mixedPage();
    const first = await runFix('annotations.flatten', doc);
    const second = await runFix('annotations.flatten', first.after);
    expect(second.outcome.count).toBe(0);
    expect(second.outcome.skipReason).toMatch(/Nothing could be flattened: 1 printing annotation\(s\) without a usable appearance/);
    expect(pageContent(second.doc)).toBe(pageContent(first.doc));
  });

  it('reports nothing to do on pages without annotations, and keeps links unless asked', async () => {
    const { doc, pages } = await basePdf(2);
    addAnnotation(doc, pages[1]!, { Subtype: 'Link', Rect: [60, 755, 200, 775], A: { S: 'URI', URI: 'https://example.com/' } });
    const bytes = await doc.save();
    expect((await runFix('annotations.flatten', bytes)).outcome).toMatchObject({ count: 0, pages: [] });
    expect((await runFix('annotations.flatten', bytes)).outcome.skipReason).toBeUndefined();
    const gone = await runFix('annotations.flatten', bytes, { links: true });
    expect(gone.outcome).toMatchObject({ count: 1, pages: [2] });
    expect(annotationSubtypes(gone.doc)).toEqual([[], []]);
  });

  it('leaves form fields to forms.flatten but flattens a widget that belongs to no field', async () => {
    const { doc, pages } = await basePdf(1);
    const field = addAnnotation(doc, pages[0]!, { Subtype: 'Widget', FT: 'Tx', T: 'name', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [field] }));
    addAnnotation(doc, pages[0]!, { Subtype: 'Widget', Rect: [300, 300, 400, 350], F: PRINT, AP: { N: appearance(doc, BLUE_BOX) } });
    const { outcome, doc: out } = await runFix('annotations.flatten', doc);
    expect(outcome.count).toBe(1);
    expect(annotationSubtypes(out)).toEqual([['Widget']]);
  });

  it('keeps optional content around a drawn annotation and removes structure references to removed ones', async () => {
    const { doc, pages } = await basePdf(1);
    const ocg = doc.context.register(doc.context.obj({ Type: 'OCG', Name: 'Notes' }));
    doc.catalog.set(PDFName.of('OCProperties'), doc.context.obj({ OCGs: [ocg], D: { OFF: [ocg] } }));
    const annot = addAnnotation(doc, pages[0]!, { Subtype: 'Square', Rect: [100, 300, 200, 350], F: PRINT, OC: ocg, AP: { N: appearance(doc, RED_BOX) }, StructParent: 0 });
    const objr = doc.context.obj({ Type: 'OBJR', Obj: annot, Pg: pages[0]!.ref });
    const elem = doc.context.register(doc.context.obj({ Type: 'StructElem', S: 'Annot', K: [objr] }));
    doc.catalog.set(PDFName.of('StructTreeRoot'), doc.context.obj({ Type: 'StructTreeRoot', K: [elem] }));
    const { doc: out, after } = await runFix('annotations.flatten', doc);
    expect(pageContent(out)).toMatch(/\/OC \/FlOC1 BDC q .* Do Q EMC/);
    expect(pixelAt(await renderPage(after), 150, 325)).toEqual([255, 255, 255]); // its layer is off, so it stays invisible
    const k = (out.context.lookup((out.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict).lookup(PDFName.of('K'), PDFArray).get(0)) as PDFDict).lookup(PDFName.of('K'));
    expect(k instanceof PDFArray ? k.size() : -1).toBe(0);
  });

  it('never throws on malformed annotations and skips what it cannot place', async () => {
    const { doc, pages } = await basePdf(1);
    const page = pages[0]!;
    addAnnotation(doc, page, { Subtype: 'Square', Rect: 'wrong', F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
    addAnnotation(doc, page, { Subtype: 'Square', Rect: [0, 0, 10, 10], F: PRINT, AP: { N: 42 } });
    addAnnotation(doc, page, { Subtype: 'Square', Rect: [0, 0, 10, 10], F: 'x', AP: 7 });
    addAnnotation(doc, page, { Subtype: 'Square', Rect: [0, 0, 10, 10], F: PRINT, AP: { N: appearance(doc, RED_BOX, { bbox: [0, 0, 0, 0] }) } });
    const annots = page.node.lookup(PDFName.of('Annots'), PDFArray);
    annots.push(doc.context.obj(5));
    annots.push(doc.context.obj(null));
    const { outcome } = await runFix('annotations.flatten', doc);
    // The flags-less one never prints and goes; the three printing ones without a usable appearance stay.
    expect(outcome.count).toBe(1);
    expect(outcome.detail).toMatch(/3 printing annotation\(s\) without a usable appearance left in place/);
  });

  it('draws appearance streams that omit Type and Subtype, with page resources inherited from the page tree', async () => {
    const { doc, pages } = await basePdf(2);
    // Both pages inherit one resource dictionary from the page tree.
    const shared = doc.context.obj({}) as PDFDict;
    for (const p of pages) {
      for (const [category, sub] of p.node.lookup(PDFName.of('Resources'), PDFDict).entries()) {
        const into = (shared.lookup(category) as PDFDict | undefined) ?? (doc.context.obj({}) as PDFDict);
        const subDict = doc.context.lookup(sub);
        if (subDict instanceof PDFDict) for (const [k, v] of subDict.entries()) into.set(k, v);
        shared.set(category, into);
      }
      p.node.delete(PDFName.of('Resources'));
    }
    doc.catalog.lookup(PDFName.of('Pages'), PDFDict).set(PDFName.of('Resources'), shared);
    addAnnotation(doc, pages[0]!, { Subtype: 'Square', Rect: [100, 300, 200, 350], F: PRINT, AP: { N: appearance(doc, RED_BOX, { subtype: false }) } });
    const { after, doc: out } = await runFix('annotations.flatten', doc);
    const shown = await renderPage(after, 1);
    expect(pixelAt(shown, 150, 325)).toEqual([255, 0, 0]);
    expect((await pageTexts(after))).toEqual(['Body text of page 1', 'Body text of page 2']);
    // The second page still inherits the page tree's resources, which did not change.
    expect(out.getPage(1).node.get(PDFName.of('Resources'))).toBeUndefined();
    const inherited = out.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Resources'), PDFDict);
    const xobjects = inherited.lookup(PDFName.of('XObject'));
    expect(xobjects instanceof PDFDict ? xobjects.keys() : []).toEqual([]);
  });
});
