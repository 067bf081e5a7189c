import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import { tempFiles } from '../../temp-files';
import { addAnnotation, annotationSubtypes, appearance, basePdf, HIDDEN, pageTexts, pixelAt, preflightChecks, previewPixels, PRINT, RED_BOX, renderPage, runFix } from './fixtures';

const files = tempFiles('forms-flatten');

/**
 * A form: a text field whose appearance shows "Jane Doe" in the form's default
 * font (its appearance has no resources of its own and relies on /DR), a check
 * box with two widgets (one "On", one "Off" without an Off appearance), a hidden
 * field, and a printing field without appearance; NeedAppearances and an XFA
 * stream too.
 */
async function formPdf(): Promise<PDFDocument> {
  const { doc, pages } = await basePdf(1);
  const page = pages[0]!;
  const helv = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  const name = addAnnotation(doc, page, {
    Subtype: 'Widget', FT: 'Tx', T: 'name', V: 'Jane Doe', Rect: [100, 500, 300, 520], F: PRINT,
    AP: { N: appearance(doc, '/Tx BMC BT /Helv 12 Tf 0 g 2 5 Td (Jane Doe) Tj ET EMC', { bbox: [0, 0, 200, 20] }) },
  });
  const on = appearance(doc, '0 0.8 0 rg 0 0 20 20 re f', { bbox: [0, 0, 20, 20] });
  const box = doc.context.register(doc.context.obj({ FT: 'Btn', T: 'agree', V: 'On', Kids: [] }));
  const w1 = addAnnotation(doc, page, { Subtype: 'Widget', Parent: box, Rect: [100, 400, 120, 420], F: PRINT, AS: 'On', AP: { N: { On: on } } });
  const w2 = addAnnotation(doc, page, { Subtype: 'Widget', Parent: box, Rect: [200, 400, 220, 420], F: PRINT, AS: 'Off', AP: { N: { On: on } } });
  (doc.context.lookup(box) as PDFDict).set(PDFName.of('Kids'), doc.context.obj([w1, w2]));
  const hidden = addAnnotation(doc, page, { Subtype: 'Widget', FT: 'Tx', T: 'secret', Rect: [100, 300, 200, 350], F: PRINT | HIDDEN, AP: { N: appearance(doc, RED_BOX) } });
  const bare = addAnnotation(doc, page, { Subtype: 'Widget', FT: 'Tx', T: 'empty', Rect: [300, 300, 400, 350], F: PRINT });
  const xfa = doc.context.register(doc.context.stream('<xdp:xdp/>'));
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [name, box, hidden, bare], NeedAppearances: true, DR: { Font: { Helv: helv } }, DA: '/Helv 0 Tf 0 g', XFA: xfa }));
  doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ UR3: doc.context.obj({}) }));
  return doc;
}

describe('forms.flatten', () => {
  it('draws what the printing fields show, then removes every widget and the form with its XFA', async () => {
    const { outcome, doc } = await runFix('forms.flatten', await formPdf());
    expect(outcome.count).toBe(5);
    expect(outcome.pages).toEqual([1]);
    expect(outcome.detail).toMatch(/^2 widget appearance\(s\) drawn into the page, 5 widget\(s\) removed, form dictionary removed \(with its XFA form\)/);
    expect(outcome.detail).toMatch(/NeedAppearances/);
    expect(outcome.detail).toMatch(/1 printing widget\(s\) had no usable appearance/);
    expect(annotationSubtypes(doc)).toEqual([[]]);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    expect(doc.catalog.has(PDFName.of('Perms'))).toBe(false);
  });

  it('keeps field values readable and visible: the text is page content now, in the form\'s font', async () => {
    const { after } = await runFix('forms.flatten', await formPdf());
    expect((await pageTexts(after))[0]).toContain('Jane Doe');
    const shown = await renderPage(after);
    expect(pixelAt(shown, 110, 410)).toEqual([0, 204, 0]); // the checked box
    expect(pixelAt(shown, 210, 410)).toEqual([255, 255, 255]); // the unchecked one has no Off appearance: nothing
    expect(pixelAt(shown, 150, 325)).toEqual([255, 255, 255]); // the hidden field
    const [page] = await previewPixels(after, files.dir);
    expect(page!.height).toBe(842);
  });

  it('prints as before (pdfjs print intent), for the fields that had an appearance', async () => {
    // Compared where the fields are: the field without appearance is the one place pdfjs may make something up before.
    const { after, before } = await runFix('forms.flatten', await formPdf());
    const a = await renderPage(before, 1, 'print');
    const b = await renderPage(after, 1, 'print');
    for (const [x, y] of [[110, 410], [210, 410], [150, 325]] as const) expect(pixelAt(b, x, y)).toEqual(pixelAt(a, x, y));
  });

  it('resolves the form finding, and a second run has nothing to do', async () => {
    const first = await runFix('forms.flatten', await formPdf());
    expect(await preflightChecks(first.before, files.dir)).toContain('document.forms');
    expect(await preflightChecks(first.after, files.dir)).not.toContain('document.forms');
    const second = await runFix('forms.flatten', first.after);
    expect(second.outcome).toMatchObject({ count: 0, pages: [] });
  });

  it('does nothing to a file without a form, and lends the form\'s resources to appearances that had none', async () => {
    const { doc } = await basePdf(1);
    expect((await runFix('forms.flatten', doc)).outcome.count).toBe(0);
    const { doc: out } = await runFix('forms.flatten', await formPdf());
    const xobjects = out.getPage(0).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('XObject'), PDFDict);
    const form = xobjects.lookup(PDFName.of('Fl1'), PDFStream);
    expect(form.dict.lookup(PDFName.of('Resources'), PDFDict).has(PDFName.of('Font'))).toBe(true);
  });

  it('removes an empty form dictionary and survives malformed fields', async () => {
    const { doc, pages } = await basePdf(1);
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [doc.context.obj(3), doc.context.obj({ Kids: 'x' })] }));
    addAnnotation(doc, pages[0]!, { Subtype: 'Widget', Rect: 'bad', F: PRINT, AP: { N: { On: 1 } }, AS: 'On' });
    const { outcome, doc: out } = await runFix('forms.flatten', doc);
    expect(outcome.count).toBe(1);
    expect(out.catalog.has(PDFName.of('AcroForm'))).toBe(false);
  });
});
