/**
 * Image agreement with pdfimages -list: which rows are comparable, how our
 * placements are paired with poppler's, and what counts as within 1 %.
 */
import { describe, expect, it } from 'vitest';
import { compareImages, tallyImages, type OurImage } from '../../bench/support/image-agreement';
import type { PopplerImageRow } from '../../bench/support/pdfimages-output';

const row = (over: Partial<PopplerImageRow>): PopplerImageRow => ({
  page: 1,
  num: 0,
  type: 'image',
  width: 300,
  height: 200,
  color: 'rgb',
  components: 3,
  bitsPerComponent: 8,
  encoding: 'jpeg',
  interpolate: false,
  inline: false,
  objectNumber: 12,
  generation: 0,
  xPpi: 300,
  yPpi: 300,
  ...over,
});
const ours = (over: Partial<OurImage>): OurImage => ({ page: 1, objectNumber: 12, inline: false, width: 300, height: 200, ppiX: 300, ppiY: 300, ...over });

describe('compareImages', () => {
  it('finds a placement within 1 % when both axes are', () => {
    const { comparisons } = compareImages([row({})], [ours({ ppiX: 301.5, ppiY: 298 })]);
    expect(comparisons[0]!.verdict).toBe('within');
  });

  it('finds it outside when either axis is off by more than 1 %', () => {
    expect(compareImages([row({})], [ours({ ppiY: 310 })]).comparisons[0]!.verdict).toBe('outside');
    expect(compareImages([row({})], [ours({ ppiX: 150 })]).comparisons[0]!.verdict).toBe('outside');
  });

  it('requires the same page and object', () => {
    const { comparisons, oursOnly } = compareImages([row({ page: 2 })], [ours({ page: 1 })]);
    expect(comparisons[0]!.verdict).toBe('missing');
    expect(oursOnly).toHaveLength(1);
    expect(compareImages([row({ objectNumber: 13 })], [ours({ objectNumber: 12 })]).comparisons[0]!.verdict).toBe('missing');
  });

  it('pairs an object placed several times closest first, each placement once', () => {
    const { comparisons } = compareImages(
      [row({ num: 0, xPpi: 150, yPpi: 150 }), row({ num: 1, xPpi: 600, yPpi: 600 }), row({ num: 2, xPpi: 300, yPpi: 300 })],
      [ours({ ppiX: 600, ppiY: 600 }), ours({ ppiX: 300, ppiY: 300 }), ours({ ppiX: 151, ppiY: 151 })],
    );
    expect(comparisons.map((c) => [c.poppler.num, c.ours?.ppiX, c.verdict])).toEqual([
      [0, 151, 'within'],
      [1, 600, 'within'],
      [2, 300, 'within'],
    ]);
  });

  it('counts poppler’s extra placements of an object as missing when we list fewer', () => {
    const { comparisons } = compareImages([row({ num: 0 }), row({ num: 1 })], [ours({})]);
    expect(comparisons.map((c) => c.verdict).sort()).toEqual(['missing', 'within']);
  });

  it('matches inline images by page and pixel size', () => {
    const { comparisons } = compareImages(
      [row({ inline: true, objectNumber: null, width: 20, height: 10, xPpi: 7, yPpi: 7 })],
      [ours({ inline: true, objectNumber: null, width: 10, height: 40, ppiX: 7, ppiY: 7 }), ours({ inline: true, objectNumber: null, width: 20, height: 10, ppiX: 7.2, ppiY: 7.2 })],
    );
    expect(comparisons[0]).toMatchObject({ verdict: 'within', ours: { width: 20, height: 10 } });
  });

  it('compares stencil (image mask) rows like images', () => {
    const { comparisons } = compareImages([row({ type: 'stencil', color: '-' })], [ours({})]);
    expect(comparisons[0]!.verdict).toBe('within');
  });

  it('sets smask and mask rows apart: they carry the parent’s object number, not a placement of their own', () => {
    const { comparisons, oursOnly } = compareImages(
      [row({ num: 0 }), row({ num: 1, type: 'smask', width: 150, height: 100, xPpi: 150, yPpi: 150 }), row({ num: 2, type: 'mask' })],
      [ours({})],
    );
    expect(comparisons.map((c) => c.verdict)).toEqual(['within', 'mask-row', 'mask-row']);
    expect(oursOnly).toEqual([]);
  });

  it('sets rows apart whose resolution poppler prints as inf', () => {
    const { comparisons } = compareImages([row({ xPpi: NaN, yPpi: NaN })], []);
    expect(comparisons[0]!.verdict).toBe('degenerate');
  });
});

describe('tallyImages', () => {
  it('counts comparable rows (within, outside, missing) apart from mask and degenerate rows', () => {
    const { comparisons } = compareImages(
      [row({ objectNumber: 1 }), row({ objectNumber: 2 }), row({ objectNumber: 3 }), row({ type: 'smask' }), row({ objectNumber: 4, xPpi: NaN })],
      [ours({ objectNumber: 1 }), ours({ objectNumber: 2, ppiX: 100 })],
    );
    expect(tallyImages(comparisons)).toEqual({ rows: 3, within: 1, outside: 1, missing: 1, maskRows: 1, degenerate: 1 });
  });
});
