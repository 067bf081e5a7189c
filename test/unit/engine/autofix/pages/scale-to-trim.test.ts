import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { preflight } from '../../../../../lambdas/engine/preflight/index';
import { annotationGeometry, boxesOf, buildPages, differingPixels, picture, render, runFix, textOf, type Raster, type Rect } from './fixtures';

const MM = 72 / 25.4;
const A4: Rect = [0, 0, 595.28, 841.89];
const A5_ORDER = { artworkSize: { width_mm: 148, height_mm: 210 } };

const sizeMm = (r: Rect) => [(r[2] - r[0]) / MM, (r[3] - r[1]) / MM].map((v) => Math.round(v * 10) / 10);

/** A raster resized with sharp, for comparing a scaled page with its original. */
async function resized(img: Raster, width: number, height: number): Promise<Raster> {
  const data = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  return { width, height, data };
}

describe('pages.scale-to-trim', () => {
  it('scales an A4 page to an A5 order: boxes, content and annotations together, and the size check passes', async () => {
    const before = await buildPages([{ mediaBox: A4, content: picture(A4), annotation: { rect: [300, 400, 400, 460] } }]);
    const { outcome, bytes, path } = await runFix('pages.scale-to-trim', before, { order: A5_ORDER });
    expect(outcome).toMatchObject({ count: 1, pages: [1] });
    const [b] = await boxesOf(bytes);
    expect(sizeMm(b!.declared.TrimBox!)).toEqual([148, 210]);
    expect(sizeMm(b!.media)).toEqual([148, 210]);
    const s = (148 * MM) / 595.28;
    const [[annot]] = await annotationGeometry(bytes);
    [300 * s, 400 * s, 400 * s, 460 * s].forEach((v, i) => expect(annot!.rect[i]).toBeCloseTo(v, 2));

    const report = await preflight({ path, fileType: 'pdf', profileId: 'default', context: A5_ORDER });
    expect(report.report.findings.map((f) => f.checkId)).not.toContain('artwork.size-mismatch');

    // The page looks like the original shrunk to A5.
    const [a] = await render(before);
    const [after] = await render(bytes);
    const shrunk = await resized(a!, after!.width, after!.height);
    expect(differingPixels(shrunk, after!, undefined, 64)).toBeLessThan(after!.width * after!.height * 0.02);
  });

  it('fits a page of other proportions inside the ordered size, centred, with the TrimBox exactly the ordered size', async () => {
    const letter: Rect = [0, 0, 612, 792];
    const before = await buildPages([{ mediaBox: letter, content: picture(letter) }]);
    const { bytes } = await runFix('pages.scale-to-trim', before, { order: { artworkSize: { width_mm: 210, height_mm: 297 } } });
    const [b] = await boxesOf(bytes);
    const trim = b!.declared.TrimBox!;
    expect(sizeMm(trim)).toEqual([210, 297]);
    // Letter is wider for its height than A4: the width fits exactly, paper is added above and below.
    const s = 595.28 / 612;
    expect(trim[2] - trim[0]).toBeCloseTo(612 * s, 1);
    expect(b!.media[3] - b!.media[1]).toBeGreaterThanOrEqual(trim[3] - trim[1] - 0.02);
    expect(trim[1] - b!.media[1]).toBeCloseTo(b!.media[3] - trim[3], 1);
  });

  it('orients the ordered size like the page', async () => {
    const landscape: Rect = [0, 0, 841.89, 595.28];
    const { bytes } = await runFix('pages.scale-to-trim', await buildPages([{ mediaBox: landscape, content: picture(landscape) }]), { order: A5_ORDER });
    expect(sizeMm((await boxesOf(bytes))[0]!.declared.TrimBox!)).toEqual([210, 148]);
  });

  it('scales the TrimBox of a page with bleed, and the bleed with it', async () => {
    const media: Rect = [0, 0, 613.28, 859.89];
    const before = await buildPages([{ mediaBox: media, trimBox: [9, 9, 604.28, 850.89], bleedBox: media, content: picture(media) }]);
    const { bytes } = await runFix('pages.scale-to-trim', before, { order: A5_ORDER });
    const [b] = await boxesOf(bytes);
    expect(sizeMm(b!.declared.TrimBox!)).toEqual([148, 210]);
    const bleed = b!.declared.BleedBox!;
    expect(bleed[0]).toBeCloseTo(0, 1);
    expect(b!.declared.TrimBox![0] - bleed[0]).toBeCloseTo(9 * (148 * MM / 595.28), 1);
  });

  it('leaves pages within the tolerance alone, and a second run changes nothing', async () => {
    const close = await buildPages([{ mediaBox: [0, 0, 419.53 + 2, 595.28 - 2] }]);
    expect((await runFix('pages.scale-to-trim', close, { order: A5_ORDER })).outcome).toMatchObject({ count: 0, pages: [] });
    expect((await runFix('pages.scale-to-trim', close, { order: A5_ORDER, params: { tolerance_mm: 0.1 } })).outcome.count).toBe(1);
    const once = await runFix('pages.scale-to-trim', await buildPages([{ mediaBox: A4 }, { mediaBox: [0, 0, 419.53, 595.28] }]), { order: A5_ORDER });
    expect(once.outcome).toMatchObject({ count: 1, pages: [1] });
    expect((await runFix('pages.scale-to-trim', once.bytes, { order: A5_ORDER })).outcome).toMatchObject({ count: 0, pages: [] });
  });

  it('needs the order\'s artwork size, and refuses absurd factors', async () => {
    const a4 = await buildPages([{ mediaBox: A4 }]);
    expect((await runFix('pages.scale-to-trim', a4)).outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/artwork size/) });
    const tiny = { artworkSize: { width_mm: 50, height_mm: 70 } }; // about 24%
    expect((await runFix('pages.scale-to-trim', a4, { order: tiny })).outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/page 1 would need 24%.*maxScalePercent/) });
    expect((await runFix('pages.scale-to-trim', a4, { order: tiny, params: { maxScalePercent: 500 } })).outcome.count).toBe(1);
  });

  it('keeps the text extractable', async () => {
    const before = await buildPages([{ mediaBox: A4 }]);
    const { bytes } = await runFix('pages.scale-to-trim', before, { order: A5_ORDER });
    expect(await textOf(bytes)).toEqual(await textOf(before));
  });
});
