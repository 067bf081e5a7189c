/**
 * For every (check, fix) pair the fix catalogue's `resolves` names, a file on
 * which the check fires and the fix alone resolves it (chains such as a
 * TrimBox added at the page edge then lacking bleed are the autofix loop's
 * matter, not a pair's). Keyed `fixId → checkId`; pairs.test.ts fails on a
 * pair without a case.
 */
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { A4, buildPdf, type PageSpec } from '../../../support/pdf-fixtures';
import { contentPdf, separation, setResource } from '../autofix/content/fixtures';
import { addAnnotation, appearance, basePdf, PRINT, RED_BOX } from '../autofix/interactive/fixtures';
import type { PairCase } from './pair-run';

/** A trim 20 pt (about 7 mm) inside the A4 MediaBox: room for 3 mm bleed on every side. */
const INSET_TRIM: PageSpec['trimBox'] = [20, 20, A4[0] - 20, A4[1] - 20];
const page = (spec: PageSpec) => () => buildPdf({ pages: [{ font: 'embedded', ...spec }] });
const saved = async (doc: PDFDocument | Promise<PDFDocument>) => (await doc).save({ useObjectStreams: false });

/** A page with a printing Square annotation (with an appearance) inside the trim. */
async function annotated(): Promise<Uint8Array> {
  const { doc, pages } = await basePdf();
  addAnnotation(doc, pages[0]!, { Subtype: 'Square', Rect: [100, 100, 200, 150], F: PRINT, AP: { N: appearance(doc, RED_BOX) } });
  return saved(doc);
}

/** A page with one text field whose widget has an appearance. */
async function withFormField(): Promise<Uint8Array> {
  const { doc, pages } = await basePdf();
  const ctx = doc.context;
  const helv = ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  const ap = appearance(doc, '/Tx BMC BT /Helv 10 Tf 0 g 2 4 Td (Name) Tj ET EMC', { bbox: [0, 0, 150, 20], resources: { Font: { Helv: helv } } });
  const field = addAnnotation(doc, pages[0]!, { Subtype: 'Widget', FT: 'Tx', T: PDFString.of('name'), V: PDFString.of('Name'), Rect: [100, 500, 250, 520], F: PRINT, AP: { N: ap } });
  doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field], DR: { Font: { Helv: helv } }, DA: PDFString.of('/Helv 0 Tf 0 g') }));
  return saved(doc);
}

/** A page whose rectangle is marked as the content of one optional content group (a layer). */
async function withLayer(): Promise<Uint8Array> {
  const doc = await contentPdf([{ content: '/OC /L1 BDC 0 0 0 1 k 50 400 200 50 re f EMC' }]);
  const layer = doc.context.register(doc.context.obj({ Type: 'OCG', Name: PDFString.of('Varnish') }));
  setResource(doc, 0, 'Properties', 'L1', layer);
  doc.catalog.set(PDFName.of('OCProperties'), doc.context.obj({ OCGs: [layer], D: { Order: [layer] } }));
  return saved(doc);
}

export const PAIR_CASES: Record<string, PairCase> = {};
const add = (c: PairCase) => (PAIR_CASES[`${c.fixId} → ${c.checkId}`] = c);

add({ fixId: 'boxes.normalize', checkId: 'boxes.trimbox-missing', name: 'a page with only a CropBox inside its MediaBox', build: page({ cropBox: INSET_TRIM }) });
add({
  fixId: 'boxes.normalize',
  checkId: 'boxes.bleedbox-outside-mediabox',
  name: 'a BleedBox beyond the MediaBox',
  build: page({ trimBox: INSET_TRIM, bleedBox: [-10, -10, A4[0] + 10, A4[1] + 10] }),
});
add({ fixId: 'boxes.normalize', checkId: 'boxes.inconsistent', name: 'a CropBox inside the TrimBox', build: page({ trimBox: INSET_TRIM, cropBox: [40, 40, A4[0] - 40, A4[1] - 40] }) });
add({
  fixId: 'boxes.normalize',
  checkId: 'bleed.insufficient',
  name: 'a BleedBox 1 mm beyond the trim of a page with room for 3 mm',
  build: page({ trimBox: INSET_TRIM, bleedBox: [17, 17, A4[0] - 17, A4[1] - 17] }),
});
add({ fixId: 'bleed.mirror', checkId: 'bleed.insufficient', name: 'a page made to its trim size, with no room for bleed', build: page({ trimBox: [0, 0, A4[0], A4[1]] }) });
add({
  fixId: 'color.spot-to-process',
  checkId: 'colour.spot',
  name: 'a rectangle in a spot colour with a CMYK alternate',
  build: async () => {
    const doc = await contentPdf([{ content: '/Gold cs 1 sc 50 400 200 50 re f' }]);
    setResource(doc, 0, 'ColorSpace', 'Gold', separation(doc, 'Gold', [0, 0.2, 0.8, 0.1]));
    return saved(doc);
  },
});
add({
  fixId: 'overprint.white-knockout',
  checkId: 'overprint.white',
  name: 'a white rectangle set to overprint',
  build: async () =>
    saved(contentPdf([{ content: '0.2 0.3 0.4 0 k 40 380 240 90 re f /OP gs 0 0 0 0 k 50 400 200 50 re f', resources: { ExtGState: { OP: { Type: 'ExtGState', OP: true, op: true } } } }])),
});
add({
  fixId: 'color.richblack-small-text-to-k',
  checkId: 'text.rich-black',
  name: '9 pt text in DeviceCMYK rich black',
  build: async () => saved(contentPdf([{ content: 'BT /F1 9 Tf 0.6 0.5 0.4 1 k 50 700 Td (Small rich) Tj ET' }])),
});
add({ fixId: 'actions.remove', checkId: 'document.javascript', name: 'a JavaScript OpenAction', build: () => buildPdf({ pages: [{ font: 'embedded' }], openAction: 'javascript' }) });
add({ fixId: 'pdfa.prepare', checkId: 'document.javascript', name: 'a JavaScript OpenAction', build: () => buildPdf({ pages: [{ font: 'embedded' }], openAction: 'javascript' }) });
add({ fixId: 'annotations.flatten', checkId: 'annotations.in-trim', name: 'a printing Square annotation inside the trim', build: annotated });
add({ fixId: 'annotations.remove', checkId: 'annotations.in-trim', name: 'a printing Square annotation inside the trim', build: annotated });
add({ fixId: 'forms.flatten', checkId: 'document.forms', name: 'a filled-in text field', build: withFormField });
add({
  fixId: 'attachments.remove',
  checkId: 'document.embedded-files',
  name: 'an attached text file',
  build: () => buildPdf({ pages: [{ font: 'embedded' }], embeddedFile: { name: 'notes.txt', bytes: new TextEncoder().encode('notes'), mimeType: 'text/plain' } }),
});
add({ fixId: 'layers.flatten', checkId: 'document.layers', name: 'a layer holding a rectangle', build: withLayer });
add({
  fixId: 'pages.scale-to-trim',
  checkId: 'artwork.size-mismatch',
  name: 'an A4 page for an A5 order',
  // The trim inside the MediaBox keeps bleed room once scaled: a page scaled to its trim edge would then lack bleed (bleed.mirror's matter).
  build: page({ trimBox: INSET_TRIM }),
  context: { artworkSize: { width_mm: 148, height_mm: 210 } },
});
add({
  fixId: 'pdfx.prepare',
  checkId: 'document.output-intent',
  name: 'no output intent where the profile requires one',
  build: page({ trimBox: INSET_TRIM, colourSpace: 'cmyk' }),
  profileId: 'gwg-sheetfed-cmyk',
});
add({ fixId: 'pdfx.prepare', checkId: 'boxes.trimbox-missing', name: 'a page with only a CropBox inside its MediaBox', build: page({ cropBox: INSET_TRIM }) });
