import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { renderPreviews } from '../../../../lambdas/engine/previews/index';
import { readOptions, selectionFailures, selectPages, targetSize } from '../../../../lambdas/engine/previews/options';
import { renderPdfPreviews } from '../../../../lambdas/engine/previews/render-pdf';
import { A4, buildPdf, garbageAfterHeader, jpegBytes, pngBytes, tiffBytes, type PdfSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('previews');
let outN = 0;

async function renderPdf(spec: PdfSpec, params: Record<string, unknown> = {}) {
  const path = files.write(await buildPdf(spec), 'pdf');
  return renderPreviews({ file: path, fileType: 'pdf', params, outDir: files.path(`out${++outN}`) });
}
async function renderRaster(bytes: Uint8Array, params: Record<string, unknown> = {}) {
  const path = files.write(bytes, 'img');
  return renderPreviews({ file: path, fileType: 'raster', params, outDir: files.path(`out${++outN}`) });
}
const previews = (r: Awaited<ReturnType<typeof renderPreviews>>) => r.images.filter((i) => i.role === 'preview');

/** RGBA of one pixel of an image file. */
async function pixel(path: string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}

describe('PDF previews', () => {
  it('renders every page as JPEG at 72 dpi by default, plus a 256 px thumbnail of page 1', async () => {
    const r = await renderPdf({ pages: 2 });
    expect(previews(r).map((i) => [i.page, i.width, i.height, i.mimeType])).toEqual([
      [1, 595, 842, 'image/jpeg'],
      [2, 595, 842, 'image/jpeg'],
    ]);
    for (const img of r.images) {
      const meta = await sharp(img.path).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', img.width, img.height]);
    }
    const thumb = r.images.find((i) => i.role === 'thumbnail')!;
    expect([thumb.page, thumb.width, thumb.height]).toEqual([1, 181, 256]);
    expect(r.failures).toEqual([]);
    expect(r.runtimeParams).toMatchObject({ format: 'jpeg', dpi: 72, quality: 85, background: 'white', pages: [1, 2], thumbnail: true });
  });

  it('scales with dpi and fits width/height keeping the aspect ratio', async () => {
    expect(previews(await renderPdf({ pages: 1 }, { dpi: 150 })).map((i) => [i.width, i.height])).toEqual([[1240, 1754]]);
    expect(previews(await renderPdf({ pages: 1 }, { width: 400 })).map((i) => [i.width, i.height])).toEqual([[400, 566]]);
    expect(previews(await renderPdf({ pages: 1 }, { height: 300 })).map((i) => [i.width, i.height])).toEqual([[212, 300]]);
    expect(previews(await renderPdf({ pages: 1 }, { width: 400, height: 400 })).map((i) => [i.width, i.height])).toEqual([[283, 400]]);
  });

  it('writes PNG and WebP when asked', async () => {
    for (const format of ['png', 'webp'] as const) {
      const [img] = previews(await renderPdf({ pages: 1 }, { format, width: 200, thumbnail: false }));
      expect(img!.mimeType).toBe(`image/${format}`);
      expect((await sharp(img!.path).metadata()).format).toBe(format);
    }
  });

  it('draws the page content, including text in a non-embedded standard font', async () => {
    const [img] = previews(await renderPdf({ pages: [{ text: 'MMMMMMMM' }] }, { format: 'png', thumbnail: false }));
    // The fixture draws a red 100 pt square at (100, 100) from the bottom left.
    expect((await pixel(img!.path, 150, 842 - 150)).slice(0, 3)).toEqual([255, 0, 0]);
    // 24 pt text with its baseline 100 pt below the top, from x = 72.
    const { data, info } = await sharp(img!.path).extract({ left: 72, top: 80, width: 120, height: 20 }).greyscale().raw().toBuffer({ resolveWithObject: true });
    const dark = [...data].filter((v) => v < 100).length;
    expect(dark / (info.width * info.height)).toBeGreaterThan(0.1);
  });

  it('renders rotated pages as they are seen', async () => {
    const [img] = previews(await renderPdf({ pages: [{ rotate: 90 }] }, { thumbnail: false }));
    expect([img!.width, img!.height]).toEqual([842, 595]);
  });

  it('renders only the selected pages and reports pages that do not exist', async () => {
    const r = await renderPdf({ pages: 4 }, { pages: '2-3,9', thumbnail: false });
    expect(previews(r).map((i) => i.page)).toEqual([2, 3]);
    expect(r.failures).toEqual([{ page: 9, reason: 'The document has 4 pages; page 9 does not exist.' }]);
  });

  it('stops the default selection at 50 pages', async () => {
    const r = await renderPdf({ pages: 52, pageDefaults: { size: [36, 36], text: null } }, { thumbnail: false });
    expect(previews(r)).toHaveLength(50);
    expect(r.failures).toEqual([]);
  });

  it('isolates a page over the pixel budget: it fails with a reason and the other pages are delivered', async () => {
    const r = await renderPdf({ pages: [{}, { size: [14400, 14400] }, {}] }, { thumbnail: false });
    expect(previews(r).map((i) => i.page)).toEqual([1, 3]);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.page).toBe(2);
    expect(r.failures[0]!.reason).toMatch(/14400 × 14400 px .* above the limit of 50 megapixels/);
  });

  it('reports the pages left when the time budget runs out instead of running past the worker limit', async () => {
    const bytes = await buildPdf({ pages: 3, pageDefaults: { size: [72, 72], text: null } });
    let clock = 0;
    const now = () => (clock += 400_000); // each look at the clock: 400 s later
    mkdirSync(files.path('budget'));
    const r = await renderPdfPreviews(files.write(bytes, 'pdf'), readOptions({ thumbnail: false }), files.path('budget'), { totalMs: 600_000, now });
    expect(r.images.map((i) => i.page)).toEqual([1]);
    expect(r.failures).toEqual([
      { page: 2, reason: 'Rendering stopped after 600 s before this page; request fewer pages or a lower resolution.' },
      { page: 3, reason: 'Rendering stopped after 600 s before this page; request fewer pages or a lower resolution.' },
    ]);
  });

  it('fills the background with the requested colour, or keeps it transparent in PNG', async () => {
    const [red] = previews(await renderPdf({ pages: [{ text: null }] }, { format: 'png', background: '#0000ff', thumbnail: false }));
    expect(await pixel(red!.path, 2, 2)).toEqual([0, 0, 255, 255]);
    const [clear] = previews(await renderPdf({ pages: [{ text: null }] }, { format: 'png', background: 'transparent', thumbnail: false }));
    expect((await pixel(clear!.path, 2, 2))[3]).toBe(0);
  });

  it('omits the thumbnail when asked', async () => {
    const r = await renderPdf({ pages: 1 }, { thumbnail: false });
    expect(r.images.map((i) => i.role)).toEqual(['preview']);
  });

  it('refuses a damaged PDF and a PDF that needs a password', async () => {
    const bad = files.write(garbageAfterHeader(), 'pdf');
    await expect(renderPreviews({ file: bad, fileType: 'pdf', params: {}, outDir: files.path('bad') })).rejects.toBeInstanceOf(UnprocessableFileError);
    const locked = files.write(await buildPdf({ encrypt: { userPassword: 'u', ownerPassword: 'o' } }), 'pdf');
    await expect(renderPreviews({ file: locked, fileType: 'pdf', params: {}, outDir: files.path('locked') })).rejects.toThrow(/password/);
  });

  it('renders a PDF that only has an owner password', async () => {
    const r = await renderPdf({ pages: 1, encrypt: { ownerPassword: 'o' } }, { thumbnail: false });
    expect(previews(r)).toHaveLength(1);
  });
});

describe('raster previews', () => {
  it('scales by dpi relative to the stated resolution', async () => {
    const r = await renderRaster(await pngBytes({ width: 1200, height: 900, density: 300 }), { format: 'png' });
    expect(previews(r).map((i) => [i.width, i.height])).toEqual([[288, 216]]);
    expect(r.images.find((i) => i.role === 'thumbnail')).toMatchObject({ width: 256, height: 192 });
  });

  it('never enlarges beyond the image itself', async () => {
    const r = await renderRaster(await pngBytes({ width: 100, height: 50 }), { dpi: 600 });
    expect(previews(r).map((i) => [i.width, i.height])).toEqual([[100, 50]]);
  });

  it('applies EXIF orientation', async () => {
    const rotated = await sharp(await pngBytes({ width: 120, height: 80 })).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const [img] = previews(await renderRaster(rotated, { thumbnail: false }));
    expect([img!.width, img!.height]).toEqual([80, 120]);
  });

  it('converts CMYK to sRGB', async () => {
    const [img] = previews(await renderRaster(await jpegBytes({ cmyk: true, width: 200, height: 100 }), { thumbnail: false }));
    const meta = await sharp(img!.path).metadata();
    expect([meta.space, meta.channels]).toEqual(['srgb', 3]);
  });

  it('renders each page of a multi-page TIFF and reports missing ones', async () => {
    const r = await renderRaster(await tiffBytes(['#ff0000', '#00ff00']), { format: 'png', pages: '1-3', thumbnail: false });
    const imgs = previews(r);
    expect(imgs.map((i) => i.page)).toEqual([1, 2]);
    const [r2, g2, b2] = await pixel(imgs[1]!.path, 5, 5);
    expect(r2).toBeLessThan(8);
    expect(g2).toBeGreaterThan(247);
    expect(b2).toBeLessThan(8);
    expect(r.failures).toEqual([{ page: 3, reason: 'The image has 2 pages; page 3 does not exist.' }]);
  });

  it('refuses an unreadable image', async () => {
    const path = files.write(Buffer.from('not an image at all'), 'img');
    await expect(renderPreviews({ file: path, fileType: 'raster', params: {}, outDir: files.path('badimg') })).rejects.toBeInstanceOf(UnprocessableFileError);
  });
});

describe('preview options', () => {
  it('reads page selections, clamping to the document: the first 50 pages by default, at most 500 when chosen', () => {
    const upTo = (n: number, from = 1) => Array.from({ length: n - from + 1 }, (_, i) => i + from);
    expect(selectPages('3-1, 2, 7', 5)).toEqual({ pages: [1, 2, 3], missing: [{ from: 7, to: 7 }], overLimit: [] });
    expect(selectPages('1-100', 60)).toEqual({ pages: upTo(60), missing: [{ from: 61, to: 100 }], overLimit: [] });
    expect(selectPages(null, 3).pages).toEqual([1, 2, 3]);
    expect(selectPages(null, 80).pages).toEqual(upTo(50));
    // The limit takes the lowest pages, whatever order the ranges were written in.
    expect(selectPages('600-700, 1-450, 2', 1000)).toEqual({ pages: [...upTo(450), ...upTo(649, 600)], missing: [], overLimit: [{ from: 650, to: 700 }] });
    expect(selectPages('1-99999999', 2000)).toEqual({ pages: upTo(500), missing: [{ from: 2001, to: 99999999 }], overLimit: [{ from: 501, to: 2000 }] });
  });

  it('says which requested pages were left out and why, as ranges', () => {
    const sel = selectPages('1-600, 700-710', 705);
    expect(selectionFailures(sel, 705, 'document')).toEqual([
      { page: 706, reason: 'The document has 705 pages; pages 706–710 do not exist.' },
      { page: 501, reason: 'Previews are limited to 500 pages per step; pages 501–600 were not rendered: request them in another step.' },
      { page: 700, reason: 'Previews are limited to 500 pages per step; pages 700–705 were not rendered: request them in another step.' },
    ]);
    expect(selectionFailures(selectPages('3', 1), 1, 'image')).toEqual([{ page: 3, reason: 'The image has 1 page; page 3 does not exist.' }]);
  });
  it('computes pixel sizes from points', () => {
    expect(targetSize(A4[0], A4[1], { dpi: 300, width: null, height: null })).toMatchObject({ width: 2480, height: 3508 });
  });
});

describe('pdfjs assets', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads fonts, CMaps and wasm from PDFJS_ASSETS_DIR when it is set', async () => {
    const pkg = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const bundleLike = files.path('pdfjs');
    mkdirSync(bundleLike);
    for (const d of ['standard_fonts', 'cmaps', 'wasm']) symlinkSync(join(pkg, d), join(bundleLike, d));
    vi.stubEnv('PDFJS_ASSETS_DIR', bundleLike);
    vi.resetModules();
    const { pdfjsAssets } = await import('../../../../lambdas/engine/previews/pdfjs');
    expect(pdfjsAssets()).toEqual({ standardFontDataUrl: `${bundleLike}/standard_fonts/`, cMapUrl: `${bundleLike}/cmaps/`, wasmUrl: `${bundleLike}/wasm/` });
  });

  it('fails loudly when PDFJS_ASSETS_DIR lacks the assets', async () => {
    const empty = files.path('empty-assets');
    mkdirSync(empty);
    vi.stubEnv('PDFJS_ASSETS_DIR', empty);
    vi.resetModules();
    const { pdfjsAssets } = await import('../../../../lambdas/engine/previews/pdfjs');
    expect(() => pdfjsAssets()).toThrow(/pdfjs assets missing/);
  });
});

describe('preview faults that are not the file\'s', () => {
  it('raises an error, not a page failure, when the output cannot be written', async () => {
    const bytes = await buildPdf({ pages: 1 });
    await expect(renderPdfPreviews(files.write(bytes, 'pdf'), readOptions({}), files.path('does-not-exist'))).rejects.toThrow();
    const path = files.write(await pngBytes(), 'png');
    const { renderRasterPreviews } = await import('../../../../lambdas/engine/previews/render-raster');
    await expect(renderRasterPreviews(path, readOptions({}), files.path('does-not-exist-either'))).rejects.toThrow();
  });
});
