import { describe, expect, it } from 'vitest';
import { layOnBackdrop } from '../../../../lambdas/engine/previews/page-backdrop';

const WHITE = 0xffffffff;
const px = (...rgba: number[][]): Uint8Array => Uint8Array.from(rgba.flat());
const pixels = (b: Buffer): number[][] => Array.from({ length: b.length / 4 }, (_, i) => [...b.subarray(i * 4, i * 4 + 4)]);

describe('layOnBackdrop', () => {
  it('keeps opaque pixels, fills transparent ones with the background and mixes the rest by their alpha', () => {
    const out = layOnBackdrop(px([10, 20, 30, 255], [1, 2, 3, 0], [255, 0, 0, 128], [0, 0, 0, 64]), 16, 4, 1, WHITE);
    expect(pixels(out)).toEqual([
      [10, 20, 30, 255],
      [255, 255, 255, 255],
      [255, 127, 127, 255],
      [191, 191, 191, 255],
    ]);
  });

  it('lays onto a coloured background (0xAARRGGBB)', () => {
    const out = layOnBackdrop(px([0, 0, 0, 0], [0, 255, 0, 255]), 8, 2, 1, 0xff0000ff);
    expect(pixels(out)).toEqual([
      [0, 0, 255, 255],
      [0, 255, 0, 255],
    ]);
  });

  it('reads rows with padding at their end (the bitmap stride) and writes them packed', () => {
    const rows = px([1, 1, 1, 255], [9, 9, 9, 9], [2, 2, 2, 255], [9, 9, 9, 9]);
    expect(pixels(layOnBackdrop(rows, 8, 1, 2, WHITE))).toEqual([
      [1, 1, 1, 255],
      [2, 2, 2, 255],
    ]);
  });

  it('leaves a transparent preview transparent: the pixels as rendered', () => {
    const rows = px([255, 0, 0, 128], [0, 0, 0, 0], [7, 7, 7, 7], [3, 3, 3, 3], [9, 9, 9, 9], [5, 5, 5, 5]);
    expect(pixels(layOnBackdrop(rows, 12, 2, 2, 0))).toEqual([
      [255, 0, 0, 128],
      [0, 0, 0, 0],
      [3, 3, 3, 3],
      [9, 9, 9, 9],
    ]);
  });
});
