import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { optimizeRaster } from '../../../../lambdas/engine/optimize/optimize-raster';
import type { RasterOptimizeParams } from '../../../../lambdas/engine/optimize/params';
import { tempFiles } from '../temp-files';
import { samples } from './fixtures';

const files = tempFiles('optimize-raster');
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>';

/** A smooth 600 × 400 photo-like image with EXIF, XMP, a Display P3 profile and 300 ppi. */
function photo(channels: 3 | 4 = 3) {
  return sharp(Buffer.from(samples(600, 400, channels)), { raw: { width: 600, height: 400, channels } });
}

async function run(bytes: Buffer, ext: string, params: RasterOptimizeParams = {}) {
  const inPath = files.write(bytes, ext);
  const outPath = `${inPath}.out.${ext}`;
  const result = await optimizeRaster(inPath, outPath, params);
  return { result, outPath, kept: existsSync(outPath) };
}

describe('optimizeRaster', () => {
  it('re-encodes a quality 100 JPEG at 90, strips EXIF and XMP, keeps the ICC profile and the resolution', async () => {
    const jpeg = await photo().withIccProfile('p3').withExif({ IFD0: { Copyright: 'Someone' } }).withXmp(XMP).withMetadata({ density: 300 }).jpeg({ quality: 100 }).toBuffer();
    const before = await sharp(jpeg).metadata();
    const { result, outPath, kept } = await run(jpeg, 'jpg');
    expect(result).toMatchObject({ changed: true, appliedFixes: ['raster.strip-metadata', 'raster.reencode'] });
    expect(kept).toBe(true);
    expect(result.sizeBytes).toBeLessThan(result.sizeBytesBefore);
    const after = await sharp(outPath).metadata();
    expect(after.xmp).toBeUndefined();
    expect(Buffer.from(after.exif ?? []).toString('latin1')).not.toMatch(/Someone/);
    expect(after.icc?.equals(before.icc!)).toBe(true);
    expect(after.density).toBe(300);
    expect([after.width, after.height]).toEqual([600, 400]);
    // No visible change: the pixels differ by JPEG noise only.
    expect(await meanDifference(jpeg, outPath)).toBeLessThan(2);
  });

  it('resizes to the longest edge asked for', async () => {
    const png = await photo().png({ compressionLevel: 1 }).toBuffer();
    const { result, outPath } = await run(png, 'png', { maxEdgePx: 300 });
    expect(result.appliedFixes).toContain('raster.resize');
    const after = await sharp(outPath).metadata();
    expect([after.width, after.height]).toEqual([300, 200]);
  });

  it('writes a PNG again losslessly', async () => {
    const png = await photo().png({ compressionLevel: 1 }).toBuffer();
    const { result, outPath } = await run(png, 'png');
    expect(result.changed).toBe(true);
    expect(await meanDifference(png, outPath)).toBe(0);
  });

  it('keeps a CMYK JPEG in CMYK', async () => {
    const cmyk = await photo().toColourspace('cmyk').jpeg({ quality: 100 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const { result, outPath } = await run(cmyk, 'jpg');
    expect(result.changed).toBe(true);
    expect(await sharp(outPath).metadata()).toMatchObject({ space: 'cmyk', channels: 4 });
  });

  it('keeps the original when the result is not smaller (a JPEG saved at a low quality)', async () => {
    const jpeg = await photo().jpeg({ quality: 40 }).toBuffer();
    const { result, kept } = await run(jpeg, 'jpg');
    expect(result).toMatchObject({ changed: false, appliedFixes: [] });
    expect(result.sizeBytes).toBe(result.sizeBytesBefore);
    expect(kept).toBe(false);
    expect(result.skippedFixes.find((s) => s.id === 'raster.reencode')?.reason).toMatch(/not smaller/);
  });

  it('leaves a multi-page TIFF as it is', async () => {
    const page = await photo().tiff().toBuffer();
    const tiff = await sharp([page, page], { join: { animated: true } }).tiff().toBuffer().catch(() => null);
    if (!tiff || ((await sharp(tiff).metadata()).pages ?? 1) < 2) return console.warn('this sharp cannot write a multi-page TIFF: test skipped');
    const { result, kept } = await run(tiff, 'tif');
    expect(result.changed).toBe(false);
    expect(result.skippedFixes[0]!.reason).toMatch(/several pages/);
    expect(kept).toBe(false);
  });
});

/** Mean absolute difference of the RGB samples (0–255). */
async function meanDifference(a: Buffer | string, b: Buffer | string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((i) => sharp(i).toColourspace('srgb').removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}
