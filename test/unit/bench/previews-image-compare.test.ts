/**
 * Comparing our page image with poppler's: RMSE on a 0–1 scale over every
 * channel, what counts as a rounding difference in size, and how a rounding
 * difference is aligned (cropped or extended with white, never shifted).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignTopLeft, comparePageImages, rmse, sizeRelation, type RgbImage } from '../../bench/support/previews-image-compare';

/** An image of one colour. */
const solid = (width: number, height: number, rgb: [number, number, number]): RgbImage => {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * 3);
  return { width, height, data };
};
const pixel = (img: RgbImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3)];

describe('rmse', () => {
  it('is 0 for identical images and 1 for black against white', () => {
    expect(rmse(solid(4, 3, [10, 20, 30]), solid(4, 3, [10, 20, 30]))).toBe(0);
    expect(rmse(solid(4, 3, [0, 0, 0]), solid(4, 3, [255, 255, 255]))).toBe(1);
  });

  it('averages the squared error over all channels of all pixels before the root', () => {
    // One channel of one pixel of four off by 255: sqrt(255² / 12) / 255.
    const a = solid(2, 2, [255, 255, 255]);
    const b = solid(2, 2, [255, 255, 255]);
    b.data[0] = 0;
    expect(rmse(a, b)).toBeCloseTo(Math.sqrt(1 / 12), 10);
  });

  it('refuses images of different sizes', () => {
    expect(() => rmse(solid(2, 2, [0, 0, 0]), solid(3, 2, [0, 0, 0]))).toThrow(/sizes differ/);
  });
});

describe('sizeRelation', () => {
  it('counts up to 2 px per side as rounding and more as a different size', () => {
    expect(sizeRelation({ width: 595, height: 842 }, { width: 595, height: 842 })).toBe('same');
    expect(sizeRelation({ width: 595, height: 842 }, { width: 596, height: 842 })).toBe('rounding');
    expect(sizeRelation({ width: 595, height: 842 }, { width: 597, height: 840 })).toBe('rounding');
    expect(sizeRelation({ width: 595, height: 842 }, { width: 842, height: 595 })).toBe('different');
  });
});

describe('alignTopLeft', () => {
  it('extends with white at the right and bottom, keeping every pixel in place', () => {
    const img = solid(2, 2, [0, 0, 0]);
    img.data.set([1, 2, 3], (1 * 2 + 1) * 3);
    const wider = alignTopLeft(img, 3, 3);
    expect([wider.width, wider.height]).toEqual([3, 3]);
    expect(pixel(wider, 0, 0)).toEqual([0, 0, 0]);
    expect(pixel(wider, 1, 1)).toEqual([1, 2, 3]);
    expect(pixel(wider, 2, 0)).toEqual([255, 255, 255]);
    expect(pixel(wider, 0, 2)).toEqual([255, 255, 255]);
  });

  it('crops the last column or row', () => {
    const img = solid(3, 2, [9, 9, 9]);
    img.data.set([1, 2, 3], 1 * 3);
    const cropped = alignTopLeft(img, 2, 1);
    expect(cropped.data).toEqual(new Uint8Array([9, 9, 9, 1, 2, 3]));
  });
});

describe('comparePageImages', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'previews-compare-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const png = async (name: string, width: number, height: number, background: string, channels: 3 | 4 = 3) => {
    const file = path.join(dir, name);
    await sharp({ create: { width, height, channels, background } }).png().toFile(file);
    return file;
  };

  it('flattens transparency onto white, as paper is', async () => {
    const ours = await png('transparent.png', 10, 10, 'rgba(0,0,0,0)', 4);
    const theirs = await png('white.png', 10, 10, '#ffffff');
    expect(await comparePageImages(ours, theirs)).toMatchObject({ rmse: 0, sizes: 'same' });
  });

  it('compares a page one pixel narrower than poppler\'s without stretching it', async () => {
    const ours = await png('narrow.png', 9, 10, '#ffffff');
    const theirs = await png('white-10.png', 10, 10, '#ffffff');
    expect(await comparePageImages(ours, theirs)).toMatchObject({ rmse: 0, sizes: 'rounding', ours: { width: 9, height: 10 }, poppler: { width: 10, height: 10 } });
  });

  it('resizes and flags a page of a really different size', async () => {
    const ours = await png('landscape.png', 20, 10, '#000000');
    const theirs = await png('portrait.png', 10, 20, '#000000');
    expect(await comparePageImages(ours, theirs)).toMatchObject({ rmse: 0, sizes: 'different' });
  });
});
