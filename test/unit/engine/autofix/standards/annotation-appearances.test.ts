import { readFileSync } from 'node:fs';
import { PDFArray, PDFDict, PDFName, PDFStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { buildPdf } from '../../../../support/pdf-fixtures';
import { pixelAt } from '../fixtures-common';
import {
  addAnnotations, addForm, annotationsOf, appearanceText, applyDirect, edit, expectSameRendering, failedRules, files, FIXED_NOW, iccHeaderOnly, inkShare, pixelsOf, reopen, runFixes, textOf,
} from './fixtures';

type Rect = [number, number, number, number];
const prepare = (bytes: Uint8Array, part = 2) => applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance: 'b', now: () => FIXED_NOW }));
/** A page with embedded-font text (so content is PDF/A-safe) and the given annotations. */
const withAnnotations = async (annots: Record<string, unknown>[], text: string | null = 'Marked up text') =>
  edit(await buildPdf({ pages: [{ font: 'embedded', text }] }), (doc) => void addAnnotations(doc, annots));
const byType = (doc: PDFDocument, subtype: string) => annotationsOf(doc).find((a) => a.get(PDFName.of('Subtype'))?.toString() === `/${subtype}`)!;

/** One annotation of each kind ISO 32000 says how to draw, each in its own area of the page. */
const KINDS: { subtype: string; rect: Rect; extra: Record<string, unknown>; content: RegExp }[] = [
  { subtype: 'Square', rect: [50, 600, 150, 680], extra: { C: [1, 0, 0], IC: [0.8, 0.9, 1], BS: { W: 3 } }, content: /1 0 0 RG[\s\S]*0\.8 0\.9 1 rg[\s\S]*51\.5 601\.5 97 77 re\s+B/ },
  { subtype: 'Circle', rect: [170, 600, 270, 680], extra: { C: [0, 0, 1], BS: { W: 2, S: 'D', D: [4, 2] } }, content: /\[4 2\] 0 d[\s\S]*0 0 1 RG[\s\S]* c\s+h\s+S/ },
  { subtype: 'Line', rect: [290, 600, 400, 680], extra: { L: [295, 605, 395, 675], C: [0, 0.6, 0] }, content: /0 0\.6 0 RG\s+295 605 m\s+395 675 l\s+S/ },
  { subtype: 'Polygon', rect: [420, 600, 520, 680], extra: { Vertices: [425, 605, 515, 605, 470, 675], IC: [1, 1, 0] }, content: /0 G\s+1 1 0 rg\s+425 605 m\s+515 605 l\s+470 675 l\s+h\s+B/ },
  { subtype: 'PolyLine', rect: [50, 480, 150, 560], extra: { Vertices: [55, 485, 100, 555, 145, 485] }, content: /55 485 m\s+100 555 l\s+145 485 l\s+S/ },
  // A zero border would make ink invisible; it is drawn 1 point wide, as pdf.js does.
  { subtype: 'Ink', rect: [170, 480, 270, 560], extra: { InkList: [[175, 485, 200, 550, 230, 500, 265, 555]], C: [1, 0.5, 0], Border: [0, 0, 0] }, content: /^q\s+1 w[\s\S]*1 0\.5 0 RG\s+175 485 m/ },
  { subtype: 'Underline', rect: [50, 440, 300, 470], extra: { QuadPoints: [50, 465, 250, 465, 50, 445, 250, 445], C: [1, 0, 0] }, content: /1 0 0 RG\s+50 446\.4 m 250 446\.4 l\s+S/ },
  { subtype: 'StrikeOut', rect: [50, 400, 300, 430], extra: { QuadPoints: [50, 425, 250, 425, 50, 405, 250, 405], C: [0, 0, 1] }, content: /50 415 m 250 415 l/ },
  { subtype: 'Squiggly', rect: [50, 360, 300, 390], extra: { QuadPoints: [50, 385, 250, 385, 50, 365, 250, 365], C: [0, 0.5, 0] }, content: /50 365 m 52 368\.3333 l 54 365 l/ },
  { subtype: 'Text', rect: [320, 480, 344, 504], extra: { C: [1, 1, 0] }, content: /1 1 0 rg\s+0 G\s+321 485 m/ },
  { subtype: 'Caret', rect: [360, 480, 380, 500], extra: { C: [0, 0, 1] }, content: /0 0 1 rg\s+360 480 m 370 500 l 380 480 l/ },
];

describe('pdfa.prepare: appearances for annotations that have none', () => {
  let path: string;
  let doc: PDFDocument;
  let detail: string;
  beforeAll(async () => {
    const bytes = await withAnnotations(KINDS.map((k) => ({ Subtype: k.subtype, Rect: k.rect, ...k.extra })), null);
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toContain('pdfa.annotations.appearance-present');
    const r = await prepare(bytes);
    path = r.path;
    detail = r.outcome.detail;
    doc = await reopen(path);
  });

  it('draws each kind ISO 32000 defines from its own properties, and the file becomes PDF/A-2b', async () => {
    expect(await failedRules(path, '2b')).toEqual([]);
    for (const k of KINDS) {
      expect(detail).toContain(`${k.subtype} annotation appearance drawn`);
      const annot = byType(doc, k.subtype);
      const n = (annot.lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N'));
      expect(n, k.subtype).toBeInstanceOf(PDFStream);
      // In page space: the form's BBox is the annotation's Rect.
      expect((n as PDFStream).dict.lookup(PDFName.of('BBox'))?.toString(), k.subtype).toBe(`[ ${k.rect.join(' ')} ]`);
      expect(appearanceText(doc, annot), k.subtype).toMatch(k.content);
    }
  });

  it('prints them: ink where each one is, and nowhere else', async () => {
    for (const k of KINDS) expect(await inkShare(path, k.rect), k.subtype).toBeGreaterThan(0.005);
    expect(await inkShare(path, [320, 100, 560, 300])).toBe(0);
  });

  it('is idempotent: a second run adds nothing', async () => {
    const again = await prepare(new Uint8Array(readFileSync(path)));
    expect(again.outcome).toMatchObject({ count: 0, detail: 'already prepared for PDF/A-2B' });
  });
});

describe('pdfa.prepare: how an appearance is drawn', () => {
  it('highlights with Multiply (the text under it stays readable), in yellow when the annotation names no colour', async () => {
    // The fixture's text: 24 points at 72, baseline 100 points below the top (741.89).
    const bytes = await withAnnotations([{ Subtype: 'Highlight', Rect: [60, 730, 300, 770], QuadPoints: [60, 765, 300, 765, 60, 735, 300, 735] }], 'Marked up text');
    const { path } = await prepare(bytes);
    const doc = await reopen(path);
    const annot = byType(doc, 'Highlight');
    expect(appearanceText(doc, annot)).toMatch(/\/GS1 gs\s+1 1 0 rg\s+60 735 m 300 735 l 300 765 l 60 765 l h\s+f/);
    const gs = (annot.lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N'), PDFStream).dict.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('ExtGState'), PDFDict);
    expect(gs.lookup(PDFName.of('GS1'), PDFDict).get(PDFName.of('BM'))?.toString()).toBe('/Multiply');
    expect(await failedRules(path, '2b')).toEqual([]);
    // The text's pixels are still dark through the yellow; the highlight's background is yellow.
    const img = await pixelsOf(path);
    let darkest = 255;
    for (let x = 60; x < 300; x++) for (let y = 736; y < 765; y++) darkest = Math.min(darkest, Math.max(...pixelAt(img, x, y)));
    expect(darkest).toBeLessThan(100);
    expect(pixelAt(img, 290, 750)).toEqual([255, 255, 0]);
    expect(await textOf(path)).toContain('Marked up text');
  });

  it('applies the annotation opacity CA in the form', async () => {
    const { path } = await prepare(await withAnnotations([{ Subtype: 'Square', Rect: [50, 600, 150, 680], IC: [0, 0, 1], CA: 0.5 }]));
    const doc = await reopen(path);
    expect(appearanceText(doc, byType(doc, 'Square'))).toMatch(/^q\s+\/GS0 gs/);
    const [r, g, b] = pixelAt(await pixelsOf(path), 100, 640);
    expect([r, g, b]).toEqual([expect.closeTo(128, -1.5), expect.closeTo(128, -1.5), 255]);
  });

  it('paints in the device family the output intent calibrates: RGB colours become CMYK under a CMYK intent', async () => {
    const bytes = await edit(await edit(await buildPdf({ pages: [{ font: 'embedded', colourSpace: 'cmyk' }] }), (doc) => void addAnnotations(doc, [{ Subtype: 'Square', Rect: [50, 600, 150, 680], C: [1, 0, 0], IC: [0, 0, 1] }])), (doc) => {
      const ctx = doc.context;
      const profile = ctx.register(ctx.flateStream(iccHeaderOnly('prtr', 'CMYK'), { N: 4 }));
      doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj([ctx.obj({ Type: 'OutputIntent', S: 'GTS_PDFA1', OutputConditionIdentifier: PDFString.of('Custom'), DestOutputProfile: profile })]));
    });
    const { path } = await prepare(bytes);
    const doc = await reopen(path);
    expect(appearanceText(doc, byType(doc, 'Square'))).toMatch(/0 1 1 0 K[\s\S]*1 1 0 0 k/);
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('gives an empty appearance the size of Rect where nothing is defined to draw, and says why', async () => {
    const bytes = await withAnnotations([
      { Subtype: 'Stamp', Rect: [50, 600, 150, 640], Name: 'Draft' },
      // A free text note whose font is not embedded: PDF/A could not have its text drawn.
      { Subtype: 'FreeText', Rect: [200, 600, 400, 640], Contents: PDFString.of('Note'), DA: PDFString.of('/Helv 12 Tf 0 g') },
      { Subtype: 'Square', Rect: [450, 600, 500, 640], Border: [0, 0, 0] },
    ]);
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('Stamp annotation given an empty appearance (ISO 32000 defines nothing to draw for it without an appearance)');
    expect(outcome.detail).toContain("FreeText annotation given an empty appearance (its text is not drawn: its font Helv is not in the form's resources)");
    expect(outcome.detail).toContain('Square annotation given an empty appearance (it has neither a border nor an interior colour)');
    const doc = await reopen(path);
    const stamp = (byType(doc, 'Stamp').lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N'), PDFStream);
    expect(stamp.dict.lookup(PDFName.of('BBox'))?.toString()).toBe('[ 0 0 100 40 ]');
    expect(appearanceText(doc, byType(doc, 'Stamp'))).toBe('');
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(await inkShare(path, [40, 590, 510, 650])).toBe(0);
  });

  it('draws free text with its font when the form resources embed it whole', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded', text: null }] }), async (doc) => {
      await addForm(doc, [], { embeddedFont: true });
      addAnnotations(doc, [{ Subtype: 'FreeText', Rect: [100, 600, 400, 650], Contents: PDFString.of('Checked by QA'), DA: PDFString.of('/LiSa 14 Tf 0 0 1 rg'), Q: 1 }]);
    });
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('FreeText annotation appearance drawn');
    const doc = await reopen(path);
    expect(appearanceText(doc, byType(doc, 'FreeText'))).toMatch(/\/LiSa 14 Tf\s+0 0 1 rg[\s\S]*\(Checked by QA\) Tj/);
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(await inkShare(path, [100, 600, 400, 650])).toBeGreaterThan(0.01);
  });

  it('leaves Popup, Link and point-sized annotations without one (PDF/A exempts them), and PDF/A-1 non-widgets too', async () => {
    const bytes = await withAnnotations([
      { Subtype: 'Popup', Rect: [50, 600, 150, 680] },
      { Subtype: 'Link', Rect: [50, 500, 150, 580], Border: [0, 0, 0] },
      { Subtype: 'Text', Rect: [300, 300, 300, 300] },
    ]);
    expect((await prepare(bytes)).outcome.detail).not.toMatch(/appearance/);
    const one = await prepare(await withAnnotations([{ Subtype: 'Square', Rect: [50, 600, 150, 680], C: [1, 0, 0] }]), 1);
    expect(one.outcome.detail).not.toMatch(/appearance/);
    expect(await failedRules(one.path, '1b')).toEqual([]);
  });

  it('never throws on malformed annotations: each still gets an appearance, empty where nothing can be read', async () => {
    const bytes = await withAnnotations([
      { Subtype: 'Ink', Rect: [50, 600, 150, 680], InkList: [[1, 2, 3], 'x', [5]] },
      { Subtype: 'Polygon', Rect: [50, 500, 150, 580], Vertices: [1, 2, 3] },
      { Subtype: 'Highlight', Rect: [50, 400, 150, 480], QuadPoints: [1, 2] },
      { Subtype: 'Square', Rect: [50, 300, 150, 380], C: [1, 0], BS: 7, CA: 'half' },
      { Subtype: 'Line', Rect: 'nowhere', L: [0, 0, 10] },
    ]);
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail.match(/given an empty appearance \(its properties give nothing to draw/g)).toHaveLength(4);
    expect(outcome.detail).toContain('Square annotation appearance drawn');
    expect(await failedRules(path, '2b')).not.toContain('pdfa.annotations.appearance-present');
  });
});

describe('pdfa.prepare: form widget appearances', () => {
  const field = (extra: Record<string, unknown>) => ({ T: PDFString.of(String(extra.FT)), F: 4, ...extra });
  const formFile = async (widgets: Record<string, unknown>[], embeddedFont = true) =>
    edit(await buildPdf({ pages: [{ font: 'embedded', text: null }] }), async (doc) => void (await addForm(doc, widgets, { embeddedFont })));

  it('draws a text field: its MK frame and its value in the embedded DA font, quadded and sized to fit', async () => {
    const bytes = await formFile([field({ FT: 'Tx', V: PDFString.of('Jane Doe'), DA: PDFString.of('/LiSa 0 Tf 0 g'), Q: 2, Rect: [50, 700, 250, 730], MK: { BC: [0, 0, 0], BG: [0.95, 0.95, 0.8] } })]);
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('Widget annotation appearance drawn');
    const doc = await reopen(path);
    const widget = annotationsOf(doc)[0]!;
    const text = appearanceText(doc, widget);
    expect(text).toMatch(/^q\s+0\.95 0\.95 0\.8 rg\s+0 0 200 30 re f\s+0 0 0 RG\s+1 w\s+0\.5 0\.5 199 29 re\s+S\s+\/Tx BMC/);
    expect(text).toMatch(/\/LiSa 12 Tf\s+0 g\s+[\d.]+ [\d.]+ Td\s+\(Jane Doe\) Tj/);
    expect(await failedRules(path, '2b')).toEqual([]);
    // Right-aligned: the text ends near the right edge, the left half stays the background colour.
    expect(await inkShare(path, [200, 705, 245, 725])).toBeGreaterThan(0.05);
    expect(pixelAt(await pixelsOf(path), 60, 715)).toEqual([242, 242, 204]);
  });

  it('leaves a value undrawn when its font is not embedded, or is a password, and says so', async () => {
    const bytes = await formFile(
      [
        field({ FT: 'Tx', T: PDFString.of('name'), V: PDFString.of('Jane'), DA: PDFString.of('/Helv 12 Tf 0 g'), Rect: [50, 700, 250, 730], MK: { BC: [0, 0, 1] } }),
        field({ FT: 'Tx', T: PDFString.of('pin'), Ff: 1 << 13, V: PDFString.of('1234'), DA: PDFString.of('/LiSa 12 Tf 0 g'), Rect: [50, 650, 250, 680] }),
        field({ FT: 'Tx', T: PDFString.of('accents'), V: PDFString.of('Zoë'), DA: PDFString.of('/LiSa 12 Tf 0 g'), Rect: [50, 600, 250, 630] }),
      ],
      true,
    );
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('its value is not drawn: its font Helvetica is not embedded');
    expect(outcome.detail).toContain('a password field’s value is never drawn');
    expect(outcome.detail).toContain('its value is not drawn: its text has characters other than printable ASCII');
    const doc = await reopen(path);
    expect(appearanceText(doc, annotationsOf(doc)[0]!)).toMatch(/0 0 1 RG[\s\S]*re\s+S\s+\/Tx BMC\s+EMC\s+Q$/);
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('gives check boxes and radio buttons Off and the on state AS or V names, with a vector mark and AS set', async () => {
    const bytes = await formFile([
      field({ FT: 'Btn', T: PDFString.of('agree'), V: 'Yes', Rect: [50, 700, 70, 720], MK: { BC: [0], BG: [1] } }),
      field({ FT: 'Btn', T: PDFString.of('cross'), AS: 'Sure', Rect: [80, 700, 100, 720], MK: { BC: [0], CA: PDFString.of('8') } }),
      field({ FT: 'Btn', T: PDFString.of('never'), Rect: [110, 700, 130, 720], MK: { BC: [0] } }),
      field({ FT: 'Btn', Ff: 1 << 15, T: PDFString.of('choice'), V: 'A', Rect: [140, 700, 160, 720], MK: { BC: [0] } }),
    ]);
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('no on state is named (AS and V are Off or missing), so only Off is drawn');
    const doc = await reopen(path);
    const [agree, cross, never, choice] = annotationsOf(doc);
    const states = (w: PDFDict) => (w.lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N'), PDFDict).keys().map((k) => k.decodeText());
    expect([agree, cross, never, choice].map((w) => [states(w!), w!.get(PDFName.of('AS'))?.toString()])).toEqual([
      [['Off', 'Yes'], '/Yes'],
      [['Off', 'Sure'], '/Sure'],
      [['Off'], '/Off'],
      [['Off', 'A'], '/A'],
    ]);
    expect(appearanceText(doc, agree!, 'Yes')).toMatch(/ m [\d.]+ [\d.]+ l [\d.]+ [\d.]+ l S$/m); // a check
    expect(appearanceText(doc, cross!, 'Sure')).toMatch(/ m [\d.]+ [\d.]+ l [\d.]+ [\d.]+ m [\d.]+ [\d.]+ l S/); // a cross
    expect(appearanceText(doc, choice!, 'A')).toMatch(/ c f$/m); // a dot
    expect(appearanceText(doc, agree!, 'Off')).not.toMatch(/ l S/);
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(await inkShare(path, [52, 702, 68, 718])).toBeGreaterThan(0.05);
    expect(await inkShare(path, [112, 702, 128, 718])).toBe(0);
  });

  it('gives a push button one state holding its frame (the caption needs a font and is not drawn)', async () => {
    const bytes = await formFile([field({ FT: 'Btn', Ff: 1 << 16, Rect: [50, 700, 130, 730], MK: { BG: [0.75], CA: PDFString.of('Go') } })]);
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('its caption is not drawn (it needs a font)');
    const doc = await reopen(path);
    const w = annotationsOf(doc)[0]!;
    expect(w.get(PDFName.of('AS'))?.toString()).toBe('/On');
    expect(appearanceText(doc, w, 'On')).toMatch(/0\.75 g\s+0 0 80 30 re f/);
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('turns a button’s single appearance stream into its state, and a non-button’s state dictionary into the stream AS shows, keeping the look', async () => {
    const bytes = await edit(await formFile([field({ FT: 'Btn', Ff: 1 << 16, Rect: [50, 700, 130, 730] }), field({ FT: 'Tx', Rect: [50, 600, 250, 630], AS: 'Shown' })]), (doc) => {
      const ctx = doc.context;
      const form = (colour: string) => ctx.register(ctx.stream(`${colour} rg 0 0 80 30 re f`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 80, 30] }));
      const [button, text] = annotationsOf(doc);
      button!.set(PDFName.of('AP'), ctx.obj({ N: form('1 0 0') }));
      text!.set(PDFName.of('AP'), ctx.obj({ N: { Hidden: form('0 1 0'), Shown: form('0 0 1') } }));
    });
    const before = await failedRules(files.write(bytes, 'pdf'), '2b');
    expect(before).toEqual(expect.arrayContaining(['pdfa.annotations.appearance-button', 'pdfa.annotations.appearance-stream']));
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('Widget annotation button appearance made a state dictionary');
    expect(outcome.detail).toContain('Widget annotation appearance states reduced to the one shown');
    const doc = await reopen(path);
    const [button, text] = annotationsOf(doc);
    expect(button!.get(PDFName.of('AS'))?.toString()).toBe('/On');
    expect(appearanceText(doc, button!, 'On')).toBe('1 0 0 rg 0 0 80 30 re f');
    expect(appearanceText(doc, text!)).toBe('0 0 1 rg 0 0 80 30 re f');
    expect(await failedRules(path, '2b')).toEqual([]);
    const beforePath = files.write(await edit(bytes, (d) => void d), 'pdf');
    await expectSameRendering(beforePath, path);
  });

  it('gives PDF/A-1 widgets an appearance (6.9), and the NeedAppearances flag can then go', async () => {
    const bytes = await edit(await formFile([field({ FT: 'Tx', V: PDFString.of('x'), DA: PDFString.of('/Helv 12 Tf 0 g'), Rect: [50, 700, 250, 730] })]), (doc) => {
      (doc.catalog.lookup(PDFName.of('AcroForm')) as PDFDict).set(PDFName.of('NeedAppearances'), doc.context.obj(true));
    });
    expect(await failedRules(files.write(bytes, 'pdf'), '1b')).toEqual(expect.arrayContaining(['pdfa.forms.widget-appearance']));
    const { outcome, path } = await prepare(bytes, 1);
    expect(outcome.detail).toContain('NeedAppearances removed');
    expect(await failedRules(path, '1b')).toEqual([]);
    expect((await reopen(path)).catalog.lookup(PDFName.of('AcroForm'), PDFDict).has(PDFName.of('NeedAppearances'))).toBe(false);
  });

  it('runs through the engine: re-opens, renders, and reports the pages it drew on', async () => {
    const bytes = await withAnnotations([{ Subtype: 'Square', Rect: [50, 600, 150, 680], C: [1, 0, 0] }]);
    const { outPath, result } = await runFixes(bytes, ['pdfa.prepare'], { fixParams: { 'pdfa.prepare': { part: 3 } } });
    expect(result.applied).toEqual([{ fixId: 'pdfa.prepare', count: expect.any(Number), pages: [1] }]);
    expect(await failedRules(outPath, '3b')).toEqual([]);
    expect(await textOf(outPath)).toContain('Marked up text');
    expect((await reopen(outPath)).getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).size()).toBe(1);
  });
});
