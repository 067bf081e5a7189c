/**
 * Destinations follow their page (destinations.ts): when pages.unrotate or
 * pages.scale-to-trim moves a page's drawing, bookmarks, links, named
 * destinations and the opening view that point into the page are rewritten
 * through the same matrix, so they still land on what they pointed at.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildPages, runFix } from './fixtures';

/** The numbers (null kept) of a destination array, after its page reference and kind. */
function destOf(doc: PDFDocument, raw: PDFObject | undefined): { kind: string; args: (number | null)[] } {
  const arr = (raw instanceof PDFArray ? raw : doc.context.lookup(raw as never)) as PDFArray;
  const items = arr.asArray().map((o) => doc.context.lookup(o));
  return { kind: String(items[1]), args: items.slice(2).map((o) => (o && 'asNumber' in (o as object) ? (o as unknown as { asNumber(): number }).asNumber() : null)) };
}

/** A document whose page 1 is the target of an outline item, a named destination, a link on page 2 and the OpenAction. */
async function withDestinations(pages: Parameters<typeof buildPages>[0]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await buildPages(pages));
  const ctx = doc.context;
  const target = doc.getPage(0).ref;
  const xyz = () => ctx.obj([target, PDFName.of('XYZ'), 100, 700, 0]);
  const outline = ctx.register(ctx.obj({ Title: PDFString.of('Heading'), Dest: xyz() }));
  const outlines = ctx.register(ctx.obj({ Type: 'Outlines', First: outline, Last: outline, Count: 1 }));
  (ctx.lookup(outline) as PDFDict).set(PDFName.of('Parent'), outlines);
  doc.catalog.set(PDFName.of('Outlines'), outlines);
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ Dests: { Names: [PDFString.of('top'), ctx.obj({ D: ctx.obj([target, PDFName.of('FitH'), 750]) })] } }));
  doc.catalog.set(PDFName.of('OpenAction'), ctx.obj([target, PDFName.of('FitR'), 50, 100, 250, 300]));
  const link = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [10, 10, 50, 30], A: { S: 'GoTo', D: ctx.obj([target, PDFName.of('XYZ'), null, 600, null]) } }));
  doc.getPage(1).node.set(PDFName.of('Annots'), ctx.obj([link]));
  return doc.save({ useObjectStreams: false });
}

async function destinations(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  const outline = doc.context.lookup((doc.context.lookup(doc.catalog.get(PDFName.of('Outlines'))) as PDFDict).get(PDFName.of('First'))) as PDFDict;
  const names = ((doc.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('Dests'), PDFDict)).lookup(PDFName.of('Names'), PDFArray)).asArray();
  const named = doc.context.lookup(names[1]) as PDFDict;
  const link = doc.context.lookup(doc.getPage(1).node.lookup(PDFName.of('Annots'), PDFArray).get(0)) as PDFDict;
  return {
    outline: destOf(doc, outline.get(PDFName.of('Dest'))),
    named: destOf(doc, named.get(PDFName.of('D'))),
    open: destOf(doc, doc.catalog.get(PDFName.of('OpenAction'))),
    link: destOf(doc, (link.lookup(PDFName.of('A'), PDFDict)).get(PDFName.of('D'))),
  };
}

describe('destinations of a moved page', () => {
  it('scale with the page under pages.scale-to-trim (null coordinates stay null)', async () => {
    // The 595 × 842 pt page scaled about the origin to 148 mm wide (its narrower fit).
    const before = await withDestinations([{}, {}]);
    const { outcome, bytes } = await runFix('pages.scale-to-trim', before, { order: { artworkSize: { width_mm: 148, height_mm: 210 } } as never });
    expect(outcome.detail).toMatch(/4 destination\(s\) moved with them/);
    const s = 148 / ((595 * 25.4) / 72);
    const d = await destinations(bytes);
    expect(d.outline.kind).toBe('/XYZ');
    expect(d.outline.args[0]).toBeCloseTo(100 * s, 1);
    expect(d.outline.args[1]).toBeCloseTo(700 * s, 1);
    expect(d.outline.args[2]).toBe(0);
    expect(d.named.args[0]).toBeCloseTo(750 * s, 1);
    expect(d.link.args[0]).toBeNull();
    expect(d.link.args[1]).toBeCloseTo(600 * s, 1);
    expect(d.link.args[2]).toBeNull();
    expect(d.open.args.map((v) => Math.round(v! / s))).toEqual([50, 100, 250, 300]);
  });

  it('turn with the page under pages.unrotate: points and rectangles turn; a lone coordinate that would change axis becomes null', async () => {
    // /Rotate 90 on A4 portrait: the new user space is 842 × 595, x' = y, y' = 595 − x.
    const before = await withDestinations([{ rotate: 90 }, {}]);
    const { bytes } = await runFix('pages.unrotate', before);
    const d = await destinations(bytes);
    expect(d.outline.args.slice(0, 2).map((v) => Math.round(v!))).toEqual([700, 495]);
    expect(d.named.kind).toBe('/FitH');
    expect(d.named.args[0]).toBeNull();
    expect(d.link.args).toEqual([null, null, null]);
    expect(d.open.args.map((v) => Math.round(v!))).toEqual([100, 345, 300, 545]);
  });

  it('of pages that did not move are left as they are', async () => {
    const before = await withDestinations([{}, { rotate: 90 }]);
    const { bytes } = await runFix('pages.unrotate', before);
    const d = await destinations(bytes);
    expect(d.outline.args).toEqual([100, 700, 0]);
    expect(d.open.args).toEqual([50, 100, 250, 300]);
  });
});
