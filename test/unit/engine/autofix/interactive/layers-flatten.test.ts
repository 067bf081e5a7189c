import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFRef } from '@cantoo/pdf-lib';
import { tempFiles } from '../../temp-files';
import { addAnnotation, annotationSubtypes, appearance, differingShare, pageContent, pageTexts, pixelAt, preflightChecks, previewPixels, PRINT, RED_BOX, renderPage, runFix, A4 } from './fixtures';

const files = tempFiles('layers-flatten');

/** Inline image data that contains "EI" between white space: only its known length tells where it ends. */
const INLINE_DATA = 'EI \xff';

/**
 * One page drawing in two layers, L1 (off by default) and L2 (on), and around them:
 * visible shapes and text, hidden shapes and text, a hidden image XObject, a
 * hidden membership (L1 and L2 both on), a font size and a clip set inside hidden
 * content that visible content relies on, a visible inline image whose data
 * contains "EI", a form XObject with its own hidden part, and two annotations,
 * one in each layer.
 */
async function layered(opts: { content?: string; usage?: boolean } = {}): Promise<{ doc: PDFDocument; l1: PDFRef; l2: PDFRef }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(A4);
  const ctx = doc.context;
  const l1 = ctx.register(ctx.obj({ Type: 'OCG', Name: 'Draft notes' }));
  const l2 = ctx.register(ctx.obj({ Type: 'OCG', Name: 'Artwork', ...(opts.usage ? { Usage: { Print: { PrintState: 'OFF' } } } : {}) }));
  const both = ctx.register(ctx.obj({ Type: 'OCMD', OCGs: [l1, l2], P: 'AllOn' }));
  const image = ctx.register(ctx.stream(new Uint8Array([0, 0, 255, 0]), { Type: 'XObject', Subtype: 'Image', Width: 2, Height: 2, ColorSpace: 'DeviceGray', BitsPerComponent: 8, OC: l1 } as never));
  const form = appearance(doc, '/OC /L1 BDC 1 0 1 rg 0 0 50 50 re f EMC 0 0.5 0 rg 50 0 50 50 re f', { resources: { Properties: { L1: l1 } } });
  const helv = ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  page.node.set(PDFName.of('Resources'), ctx.obj({ Font: { F1: helv }, XObject: { Im1: image, Fm1: form }, Properties: { L1: l1, L2: l2, M1: both } }));
  const content = opts.content ?? [
    'q 1 0 0 rg 50 50 100 100 re f Q',
    '/OC /L1 BDC 0 0 1 rg 200 50 100 100 re f BT /F1 12 Tf 200 200 Td (Hidden words) Tj ET EMC',
    '/OC /L2 BDC 0 1 0 rg 350 50 100 100 re f EMC',
    '/OC /M1 BDC 1 1 0 rg 50 600 100 100 re f EMC',
    '/OC /L1 BDC /F1 30 Tf EMC',
    'BT 0 g 50 300 Td (Visible words) Tj ET',
    'q 100 0 0 100 50 400 cm /Im1 Do Q',
    `q 50 0 0 50 300 400 cm BI /W 2 /H 2 /CS /G /BPC 8 ID ${INLINE_DATA} EI Q`,
    'q 1 0 0 1 400 600 cm /Fm1 Do Q',
    'q /OC /L1 BDC 560 800 35 42 re W n EMC 0.8 g 0 0 595 842 re f Q',
  ].join('\n');
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.stream(Buffer.from(content, 'latin1'))));
  const d: Record<string, unknown> = { OFF: [l1] };
  if (opts.usage) d.AS = [{ Event: 'Print', Category: ['Print'], OCGs: [l2] }];
  doc.catalog.set(PDFName.of('OCProperties'), ctx.obj({ OCGs: [l1, l2], D: d } as never));
  addAnnotation(doc, page, { Subtype: 'Square', Rect: [450, 700, 550, 750], F: PRINT, OC: l1, AP: { N: appearance(doc, RED_BOX) } });
  addAnnotation(doc, page, { Subtype: 'Square', Rect: [450, 750, 550, 800], F: PRINT, OC: l2, AP: { N: appearance(doc, RED_BOX) } });
  return { doc, l1, l2 };
}

describe('layers.flatten', () => {
  it('keeps what the default view shows and takes hidden layers out, marks and entries included', async () => {
    const { doc } = await layered();
    const { outcome, doc: out } = await runFix('layers.flatten', doc);
    expect(outcome.count).toBe(2);
    expect(outcome.pages).toEqual([1]);
    expect(outcome.detail).toBe('2 layer(s) flattened (1 hidden by default): 2 content stream(s) rewritten, 5 hidden drawing operation(s) removed, 1 hidden annotation(s) removed, 3 /OC entries removed');
    expect(out.catalog.has(PDFName.of('OCProperties'))).toBe(false);
    const content = pageContent(out);
    expect(content).not.toMatch(/\/OC|BDC|EMC|Hidden words|\/Im1 Do/);
    expect(content).toContain('200 50 100 100 re\nn'); // the hidden rectangle's painting became `n`
    expect(content).toContain('/F1 30 Tf'); // state set in hidden content still applies
    expect(annotationSubtypes(out)).toEqual([['Square']]);
    const props = out.getPage(0).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('Properties'), PDFDict);
    expect(props.keys()).toEqual([]);
  });

  it('renders the same as before inside the page and keeps the visible text extractable', async () => {
    const { doc } = await layered();
    const { before, after } = await runFix('layers.flatten', doc);
    const [a] = await previewPixels(before, files.dir);
    const [b] = await previewPixels(after, files.dir);
    expect(differingShare(a!, b!)).toBeLessThan(0.0005);
    const shown = await renderPage(after);
    expect(pixelAt(shown, 100, 100)).toEqual([255, 0, 0]); // visible
    expect(pixelAt(shown, 400, 100)).toEqual([0, 255, 0]); // layer on
    expect(pixelAt(shown, 475, 625)).toEqual([0, 128, 0]); // the form's visible half
    expect(pixelAt(shown, 580, 830)).toEqual([204, 204, 204]); // the clip set in hidden content still clips the grey…
    expect(pixelAt(shown, 540, 830)).toEqual([255, 255, 255]); // …to the top right corner
    const [text] = await pageTexts(after);
    expect(text).toContain('Visible words');
    expect(text).not.toContain('Hidden words');
  });

  it('copies inline images byte for byte, even when their data contains "EI"', async () => {
    const { doc } = await layered();
    const { doc: out } = await runFix('layers.flatten', doc);
    expect(pageContent(out)).toContain(`BI /W 2 /H 2 /CS /G /BPC 8 ID ${INLINE_DATA} EI`);
  });

  it('resolves the layers finding, and a second run has nothing to do', async () => {
    const { doc } = await layered();
    const first = await runFix('layers.flatten', doc);
    expect(await preflightChecks(first.before, files.dir)).toContain('document.layers');
    expect(await preflightChecks(first.after, files.dir)).not.toContain('document.layers');
    expect((await runFix('layers.flatten', first.after)).outcome).toMatchObject({ count: 0, pages: [] });
  });

  it('follows the print state when asked and a layer states one through the configuration\'s auto state', async () => {
    const viewed = await runFix('layers.flatten', (await layered({ usage: true })).doc);
    expect(pageContent(viewed.doc)).toContain('350 50 100 100 re\nf');
    const printed = await runFix('layers.flatten', (await layered({ usage: true })).doc, { use: 'print' });
    expect(pageContent(printed.doc)).toContain('350 50 100 100 re\nn');
    expect(annotationSubtypes(printed.doc)).toEqual([[]]);
  });

  it('refuses, changing nothing, when visible text continues a line begun in a hidden layer', async () => {
    const { doc } = await layered({ content: 'BT /F1 12 Tf 50 300 Td /OC /L1 BDC (Hidden ) Tj EMC (visible) Tj ET' });
    const { outcome, doc: out } = await runFix('layers.flatten', doc);
    expect(outcome.count).toBe(0);
    expect(outcome.skipReason).toMatch(/visible text continues a line whose start is in a hidden layer/);
    expect(out.catalog.has(PDFName.of('OCProperties'))).toBe(true);
  });

  it('does nothing without layers and tolerates malformed layer entries', async () => {
    const plain = await PDFDocument.create();
    plain.addPage(A4);
    expect((await runFix('layers.flatten', plain)).outcome.count).toBe(0);
    const { doc } = await layered({ content: '/OC /Nope BDC 0 0 1 rg 0 0 10 10 re f EMC /OC 5 BDC EMC EMC' });
    doc.catalog.set(PDFName.of('OCProperties'), doc.context.obj({ OCGs: 'x', D: { OFF: 3, AS: [1] } }));
    const { outcome } = await runFix('layers.flatten', doc);
    expect(outcome.count).toBe(1);
  });
});
