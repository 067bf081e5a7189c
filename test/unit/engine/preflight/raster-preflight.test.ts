import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import type { OrderContext } from '../../../../lambdas/domain/model';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import type { RasterDocumentSection } from '../../../../lambdas/engine/preflight/report';
import { jpegBytes, pngBytes, tiffBytes } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('raster-preflight');

async function run(bytes: Uint8Array, context: OrderContext | null = null, profileId = 'default') {
  const path = files.write(bytes, 'img');
  const r = await preflight({ path, fileType: 'raster', profileId, context });
  return { ...r, doc: r.report.document as RasterDocumentSection, ids: r.report.findings.map((f) => f.checkId) };
}

describe('raster preflight, default profile', () => {
  it('reports pixel size, stated density, physical size, colour and alpha facts', async () => {
    const r = await run(await pngBytes({ width: 1200, height: 900, density: 300 }));
    expect(r.doc).toMatchObject({
      kind: 'raster',
      format: 'png',
      widthPx: 1200,
      heightPx: 900,
      pageCount: 1,
      densityPpi: 300,
      sizeMm: { width: 101.6, height: 76.2 },
      effectivePpi: 300,
      colourSpace: 'srgb',
      channels: 3,
      hasAlpha: false,
    });
    expect(r.ids).not.toContain('images.resolution-low');
    expect(r.ids).not.toContain('images.resolution-marginal');
    expect(r.report.images).toEqual([
      { page: 1, width: 1200, height: 900, ppiX: 300, ppiY: 300, colorSpace: 'srgb', bitsPerComponent: 8, bbox: null, objectNumber: null, inline: false, imageMask: false, filter: 'png', softMask: false, placedMm: { width: 101.6, height: 76.2 }, effective_dpi: 300, color_space: 'DeviceRGB' },
    ]);
    expect(r.report).toMatchObject({ imageCount: 1, pages: [], fonts: [], spotColors: [] });
  });

  it('judges resolution at the ordered artwork size when there is one', async () => {
    // Covering 100 × 75 mm, the 200 px side decides: 200 px / 75 mm = 68 ppi.
    const low = await run(await pngBytes({ width: 300, height: 200, density: 300 }), { artworkSize: { width_mm: 100, height_mm: 75 } });
    const f = low.report.findings.find((x) => x.checkId === 'images.resolution-low')!;
    expect(f).toMatchObject({ severity: 'error', measured: { effective_ppi: 68, basis: 'artwork size' }, required: { min_ppi: 150 } });
    expect(f.message).toBe('The image (300 × 200 px) reaches 68 ppi at the ordered artwork size, below the minimum 150 ppi; it will print visibly blurred or pixelated.');
    expect(low.outcome).toBe('fail');

    const marginal = await run(await pngBytes({ width: 800, height: 600 }), { artworkSize: { width_mm: 100, height_mm: 75 } });
    expect(marginal.doc.effectivePpi).toBe(203);
    expect(marginal.ids).toContain('images.resolution-marginal');

    const fine = await run(await pngBytes({ width: 1200, height: 900 }), { artworkSize: { width_mm: 75, height_mm: 100 } });
    expect(fine.ids).not.toContain('images.resolution-low');
    expect(fine.ids).not.toContain('images.resolution-marginal');
  });

  it('says the resolution cannot be judged when the file states none and no size was ordered', async () => {
    const r = await run(await jpegBytes({ width: 400, height: 300 }));
    expect(r.doc.densityPpi).toBeNull();
    expect(r.report.findings.find((f) => f.checkId === 'image.resolution-unknown')).toMatchObject({ severity: 'info' });
  });

  it('notes RGB images and missing ICC profiles as information', async () => {
    const r = await run(await jpegBytes({ density: 300, width: 1200, height: 900 }));
    expect(r.ids).toEqual(['image.rgb', 'image.no-icc']);
    expect(r.outcome).toBe('pass');
    const tagged = await run(await jpegBytes({ density: 300, width: 1200, height: 900, icc: true }));
    expect(tagged.doc.hasIccProfile).toBe(true);
    expect(tagged.doc.iccProfileDescription).toMatch(/sRGB/);
    expect(tagged.ids).not.toContain('image.no-icc');
    expect(r.doc.iccProfileDescription).toBeNull();
  });

  it('judges colour by profile: RGB is an error for CMYK print, information for digital print, fine for screen', async () => {
    const rgb = await jpegBytes({ density: 300, width: 1200, height: 900, icc: true });
    const sheetfed = await run(rgb, null, 'gwg-sheetfed-cmyk');
    expect(sheetfed.report.findings.map((f) => [f.checkId, f.severity])).toEqual([['image.rgb', 'error']]);
    expect(sheetfed.outcome).toBe('fail');
    expect((await run(rgb, null, 'gwg-digital-print')).report.findings.map((f) => [f.checkId, f.severity])).toEqual([['image.rgb', 'info']]);
    expect((await run(rgb, null, 'screen')).report.findings).toEqual([]);
  });

  it('judges resolution by profile: 120 ppi fails sheetfed, is marginal for digital print and fine for screen', async () => {
    const png = await pngBytes({ width: 1200, height: 900, density: 120 });
    expect((await run(png, null, 'gwg-sheetfed-cmyk')).ids).toContain('images.resolution-low');
    expect((await run(png, null, 'gwg-digital-print')).ids).toContain('images.resolution-marginal');
    expect((await run(png, null, 'screen')).ids).toEqual([]);
  });

  it('does not call a CMYK image RGB', async () => {
    const r = await run(await jpegBytes({ cmyk: true, density: 300, width: 1200, height: 900 }));
    expect(r.doc.colourSpace).toBe('cmyk');
    expect(r.doc.channels).toBe(4);
    expect(r.ids).not.toContain('image.rgb');
  });

  it('notes transparency', async () => {
    const r = await run(await pngBytes({ alpha: true, density: 300, width: 1200, height: 900 }));
    expect(r.doc.hasAlpha).toBe(true);
    expect(r.ids).toContain('image.alpha');
  });

  it('warns when the proportions do not fit the ordered artwork', async () => {
    const r = await run(await pngBytes({ width: 1200, height: 900 }), { artworkSize: { width_mm: 100, height_mm: 100 } });
    const f = r.report.findings.find((x) => x.checkId === 'artwork.aspect-mismatch')!;
    expect(f).toMatchObject({ severity: 'warn', measured: { excess_mm: 33.3 } });
    const fits = await run(await pngBytes({ width: 1200, height: 900 }), { artworkSize: { width_mm: 80, height_mm: 60 } });
    expect(fits.ids).not.toContain('artwork.aspect-mismatch');
  });

  it('counts the pages of a multi-page TIFF against the ordered page count', async () => {
    const r = await run(await tiffBytes(['#ff0000', '#00ff00', '#0000ff'], { density: 300 }), { pageCount: { max: 2 } });
    expect(r.doc.pageCount).toBe(3);
    expect(r.report.summary.pages).toBe(3);
    expect(r.report.findings.find((f) => f.checkId === 'document.page-count')!.message).toBe('The image file has 3 pages; the order allows at most 2 pages.');
  });

  it('counts an animated GIF as one page, not one per frame', async () => {
    const frames = await Promise.all(['#ff0000', '#00ff00'].map((c) => pngBytes({ colour: c })));
    const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    const r = await run(gif, { pageCount: { max: 1 } });
    expect(r.doc.pageCount).toBe(1);
    expect(r.ids).not.toContain('document.page-count');
  });

  it('refuses a truncated image with UnprocessableFileError', async () => {
    const jpeg = await jpegBytes({ width: 600, height: 400 });
    const path = files.write(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'jpg');
    await expect(preflight({ path, fileType: 'raster', profileId: 'default', context: null })).rejects.toBeInstanceOf(UnprocessableFileError);
  });

  it('refuses bytes that are no image at all', async () => {
    const path = files.write(Buffer.from('definitely not an image'), 'jpg');
    await expect(preflight({ path, fileType: 'raster', profileId: 'default', context: null })).rejects.toThrow(/could not be read/);
  });
});
