import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { contentBytes } from '../../../../../lambdas/engine/core/page-content';
import { preflight } from '../../../../../lambdas/engine/preflight/index';
import { boxesOf, buildPages, differingPixels, inkedPixels, picture, pixelAt, render, runFix, textOf, type Rect } from './fixtures';

const MM = 72 / 25.4;
const MEDIA: Rect = [0, 0, 615, 862];
const TRIM: Rect = [10, 10, 605, 852];

/**
 * Artwork made to the trim: a pale yellow background exactly on the TrimBox,
 * the asymmetric picture, and marks touching each trim edge (black on the
 * left, blue at the bottom, red on the right, green at the top) so each
 * mirrored strip shows which mark it copied.
 */
function toTrim(trim: Rect, extra = ''): string {
  const [x0, y0, x1, y1] = trim;
  return [
    `1 1 0.8 rg ${x0} ${y0} ${x1 - x0} ${y1 - y0} re f`,
    picture(trim),
    `0 0 0 rg ${x0} ${y0 + 300} 6 40 re f`,
    `0 0 1 rg ${x0 + 300} ${y0} 40 6 re f`,
    `1 0 0 rg ${x1 - 6} ${y0 + 300} 6 40 re f`,
    `0 0.6 0 rg ${x0 + 300} ${y1 - 6} 40 6 re f`,
    extra,
  ].join('\n');
}

/** The TrimBox of a page as pixels from the top left of a 72 dpi rendering. */
const trimPixels = (trim: Rect, media: Rect) => ({ left: trim[0] - media[0], top: media[3] - trim[3], right: trim[2] - media[0], bottom: media[3] - trim[1] });

describe('bleed.mirror', () => {
  it('mirrors the artwork into the bleed on every side where nothing crosses the trim, and leaves the trim area as it was', async () => {
    const before = await buildPages([{ mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: toTrim(TRIM) }]);
    const { outcome, bytes } = await runFix('bleed.mirror', before);
    expect(outcome).toMatchObject({ count: 1, pages: [1] });
    const [a] = await render(before);
    const [b] = await render(bytes);
    // Inside the trim: the same pixels (one pixel in from the cut for anti-aliasing).
    expect(differingPixels(a!, b!, trimPixels(TRIM, MEDIA), 24, 1)).toBe(0);
    // The bleed was paper white and is now painted all round.
    const strips = { left: { left: 0, top: 0, right: 10, bottom: 862 }, right: { left: 605, top: 0, right: 615, bottom: 862 }, top: { left: 0, top: 0, right: 615, bottom: 10 }, bottom: { left: 0, top: 852, right: 615, bottom: 862 } };
    for (const r of Object.values(strips)) {
      expect(inkedPixels(a!, r)).toBe(0);
      expect(inkedPixels(b!, r)).toBeGreaterThan(r.right - r.left + r.bottom - r.top);
    }
    // Each mark is mirrored across its own edge: 3 pt inside the trim shows again 3 pt outside it.
    const y = 862 - (10 + 320);
    expect(pixelAt(b!, 7, y)).toEqual(pixelAt(b!, 13, y)); // black, left
    expect(pixelAt(b!, 7, y)[0]).toBeLessThan(60);
    expect(pixelAt(b!, 608, y)).toEqual(pixelAt(b!, 602, y)); // red, right
    expect(pixelAt(b!, 330, 7)).toEqual(pixelAt(b!, 330, 13)); // green, top
    expect(pixelAt(b!, 330, 855)).toEqual(pixelAt(b!, 330, 849)); // blue, bottom
    // Corners are mirrored about both edges: the yellow background reaches them.
    expect(pixelAt(b!, 3, 3)).toEqual(pixelAt(b!, 17, 17));
  });

  it('leaves alone a side whose artwork already runs over the trim', async () => {
    // A green band from the trim's left edge 10 pt into the bleed: the left side has real bleed.
    const before = await buildPages([{ mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: toTrim(TRIM, '0 0.5 0 rg 0 100 40 200 re f') }]);
    const { outcome, bytes } = await runFix('bleed.mirror', before);
    expect(outcome.count).toBe(1);
    const [a] = await render(before);
    const [b] = await render(bytes);
    const left = { left: 0, top: 10, right: 10, bottom: 852 };
    expect(differingPixels(a!, b!, left)).toBe(0);
    expect(inkedPixels(b!, { left: 605, top: 10, right: 615, bottom: 852 })).toBeGreaterThan(0); // the right side got bleed
    // The bottom strip runs on into the left corner, mirroring the real bleed there (white paper below the band stays white).
    expect(differingPixels(a!, b!, trimPixels(TRIM, MEDIA), 24, 1)).toBe(0);
  });

  it('grows the page for the ordered bleed when it has no room, and then passes the bleed check', async () => {
    const media: Rect = [0, 0, 595, 842];
    const before = await buildPages([{ mediaBox: media, trimBox: media, content: toTrim(media) }]);
    // 9 pt (3.175 mm): a whole number of pixels at 72 dpi, so before and after can be compared pixel for pixel.
    const order = { bleed: { required_mm: 9 / MM } };
    // Without an ordered bleed and with bleed_mm 0: no bleed area to fill.
    const path = (await runFix('bleed.mirror', before, { order: null, params: { bleed_mm: 0 } })).path;
    expect((await runFix('bleed.mirror', before, { params: { bleed_mm: 0 } })).outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/no bleed area/) });
    // Without an ordered bleed, the default 3 mm (what the preflight profiles require) is made.
    const byDefault = await runFix('bleed.mirror', before);
    expect(byDefault.outcome).toMatchObject({ count: 1, pages: [1] });
    const grownBy = (await boxesOf(byDefault.bytes))[0]!.declared.MediaBox![2] - 595;
    expect(grownBy).toBeCloseTo(3 * MM, 1);
    const defaultPre = await preflight({ path: byDefault.path, fileType: 'pdf', profileId: 'default', context: null });
    expect(defaultPre.report.findings.map((f) => f.checkId)).not.toContain('bleed.insufficient');
    const pre = await preflight({ path, fileType: 'pdf', profileId: 'default', context: order });
    expect(pre.report.findings.map((f) => f.checkId)).toContain('bleed.insufficient');

    const { outcome, bytes, path: fixed } = await runFix('bleed.mirror', before, { order });
    expect(outcome).toMatchObject({ count: 1, pages: [1] });
    const [boxes] = await boxesOf(bytes);
    const g = 9;
    for (const [got, want] of [[boxes!.declared.MediaBox!, [-g, -g, 595 + g, 842 + g]], [boxes!.declared.BleedBox!, [-g, -g, 595 + g, 842 + g]]] as const) {
      got.forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 1));
    }
    expect(boxes!.declared.TrimBox).toEqual(media);
    const post = await preflight({ path: fixed, fileType: 'pdf', profileId: 'default', context: order });
    expect(post.report.findings.map((f) => f.checkId)).not.toContain('bleed.insufficient');

    // The finished page is the same picture, now framed by mirrored bleed.
    const [a] = await render(before);
    const [b] = await render(bytes);
    expect(b!.width).toBe(Math.round(595 + 2 * g));
    const shift = Math.round(g);
    let differing = 0;
    for (let y = 1; y < a!.height - 1; y++) {
      for (let x = 1; x < a!.width - 1; x++) {
        const p = pixelAt(a!, x, y);
        const q = pixelAt(b!, x + shift, y + shift);
        if (p.some((v, k) => Math.abs(v - q[k]!) > 40)) differing++;
      }
    }
    expect(differing).toBeLessThan(a!.width * a!.height * 0.002);
  });

  it('grows an empty page for the ordered bleed too, with nothing to mirror (a padded blank page)', async () => {
    const media: Rect = [0, 0, 595, 842];
    const { outcome, bytes } = await runFix('bleed.mirror', await buildPages([{ mediaBox: media, trimBox: media, content: '' }]), { order: { bleed: { required_mm: 9 / MM } } });
    expect(outcome).toMatchObject({ count: 1, pages: [1] });
    const [b] = await boxesOf(bytes);
    expect(b!.declared.MediaBox).toEqual([-9, -9, 604, 851]);
    expect(b!.declared.BleedBox).toEqual([-9, -9, 604, 851]);
    expect((await runFix('bleed.mirror', bytes, { order: { bleed: { required_mm: 9 / MM } } })).outcome.count).toBe(0);
  });

  it('leaves the mirrored copies without glyphs: the text is extracted once, as before', async () => {
    const before = await buildPages([{ mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: toTrim(TRIM, `BT /F1 10 Tf 12 500 Td (Edge) Tj ET`) }]);
    const { bytes } = await runFix('bleed.mirror', before);
    expect(await textOf(bytes)).toEqual(await textOf(before));
    expect((await textOf(bytes))[0]!.match(/Proofline/g)).toHaveLength(1);
  });

  it('leaves alone a page whose TrimBox reaches beyond its MediaBox, and preflight does not offer it (realworld/pdfjs/issue1155r.pdf)', async () => {
    // Growing such a page to its TrimBox plus bleed would make a finished page larger than the one that printed.
    const before = await buildPages([{ mediaBox: [0, 0, 595, 842], trimBox: [0, 0, 1190, 1684], content: toTrim([0, 0, 595, 842]) }]);
    const { outcome } = await runFix('bleed.mirror', before);
    expect(outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/TrimBox extends beyond its MediaBox/) });
    const path = (await runFix('bleed.mirror', before, { params: { bleed_mm: 0 } })).path;
    const finding = (await preflight({ path, fileType: 'pdf', profileId: 'default', context: null })).report.findings.find((f) => f.checkId === 'bleed.insufficient');
    expect(finding?.fix.available).toBe(false);
  });

  it('does not offer a page whose content streams do not decode: it could not draw the mirrored copies (realworld/pdfjs/PDFBOX-4352-0.pdf)', async () => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([595, 842]);
    page.node.set(PDFName.of('TrimBox'), doc.context.obj([0, 0, 595, 842]));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('not flate data at all', { Filter: 'FlateDecode' })));
    const bytes = await doc.save({ useObjectStreams: false });
    expect((await runFix('bleed.mirror', bytes)).outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/could not be decoded/) });
    const path = (await runFix('bleed.mirror', bytes, { params: { bleed_mm: 0 } })).path;
    const finding = (await preflight({ path, fileType: 'pdf', profileId: 'default', context: null })).report.findings.find((f) => f.checkId === 'bleed.insufficient');
    expect(finding).toBeDefined();
    expect(finding!.fix.available).toBe(false);
  });

  it('clips the original content to the page it had only when something was painted beyond it (a clip changes how renderers smooth image edges)', async () => {
    const media: Rect = [0, 0, 595, 842];
    const clipsOriginal = async (content: string) => {
      const { bytes } = await runFix('bleed.mirror', await buildPages([{ mediaBox: media, trimBox: media, content }]));
      const { doc } = await openPdfBytes(bytes);
      const text = Buffer.from(contentBytes(doc.context, doc.getPages()[0]!.node.get(PDFName.of('Contents')))!).toString('latin1');
      return text.trimStart().startsWith(`q\n0 0 595 842 re W n`) || /^q\s+0 0 595 842 re W n/.test(text.trimStart());
    };
    expect(await clipsOriginal(toTrim(media))).toBe(false);
    // A mark painted beyond the MediaBox stayed hidden; on the grown page it must stay hidden.
    expect(await clipsOriginal(`${toTrim(media)}\n0 0 0 rg -20 300 10 10 re f`)).toBe(true);
  });

  it('skips pages without a TrimBox or without a bleed area, and empty pages, saying why', async () => {
    const noTrim = await runFix('bleed.mirror', await buildPages([{}]));
    expect(noTrim.outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/no TrimBox/) });
    const noBleed = await runFix('bleed.mirror', await buildPages([{ trimBox: [0, 0, 595, 842] }]), { params: { bleed_mm: 0 } });
    expect(noBleed.outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/no bleed area/) });
    const empty = await runFix('bleed.mirror', await buildPages([{ mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: '' }]));
    expect(empty.outcome).toMatchObject({ count: 0, pages: [] });
  });

  it('changes only the pages that need it, and a second run finds nothing to do', async () => {
    const before = await buildPages([
      { mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: toTrim(TRIM) },
      { mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, content: toTrim(MEDIA) }, // artwork already bleeds all round
    ]);
    const once = await runFix('bleed.mirror', before);
    expect(once.outcome).toMatchObject({ count: 1, pages: [1] });
    const twice = await runFix('bleed.mirror', once.bytes);
    expect(twice.outcome).toMatchObject({ count: 0, pages: [] });
    const [, a2] = await render(before);
    const [b1, b2] = await render(once.bytes);
    expect(differingPixels(a2!, b2!)).toBe(0);
    expect(b1).toBeDefined();
  });
});
