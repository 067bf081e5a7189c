import { describe, expect, it } from 'vitest';
import { checkImages, type ImageFacts } from '../../../../lambdas/engine/preflight/checks-images';
import { judge, only, severities } from './judge';

function image(ppi: number, over: Partial<ImageFacts> = {}): ImageFacts {
  return {
    page: 1,
    width: 1000,
    height: 800,
    ppiX: ppi,
    ppiY: ppi,
    colorSpace: 'DeviceCMYK',
    bitsPerComponent: 8,
    bbox: [72, 72, 300, 250],
    objectNumber: 9,
    inline: false,
    imageMask: false,
    filter: 'DCTDecode',
    softMask: false,
    placedMm: { width: 80, height: 64 },
    within: 'page',
    ...over,
  };
}

const check = (profile: string, images: ImageFacts[]) => judge(profile, (s) => checkImages(images, s));
const verdict = (profile: string, ppi: number, over: Partial<ImageFacts> = {}) => severities(check(profile, [image(ppi, over)]));
const oneBit = { bitsPerComponent: 1, colorSpace: 'DeviceGray' };

describe('image resolution', () => {
  it('sheetfed (GWG): 149 ppi is an error, 150 and 224 warnings, 225 passes', () => {
    expect(verdict('gwg-sheetfed-cmyk', 149)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-sheetfed-cmyk', 150)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-sheetfed-cmyk', 224)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-sheetfed-cmyk', 225)).toEqual([]);
  });
  it('judges whole ppi as reported: 149.4 is 149, 149.6 is 150', () => {
    expect(verdict('gwg-sheetfed-cmyk', 149.4)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-sheetfed-cmyk', 149.6)).toEqual([['images.resolution-marginal', 'warn']]);
  });
  it('sheetfed 1-bit images (and stencil masks): 549 error, 550 and 799 warnings, 800 passes', () => {
    expect(verdict('gwg-sheetfed-cmyk', 549, oneBit)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-sheetfed-cmyk', 550, oneBit)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-sheetfed-cmyk', 799, { imageMask: true, bitsPerComponent: 1, colorSpace: null })).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-sheetfed-cmyk', 800, oneBit)).toEqual([]);
  });
  it('digital print (GWG): 95/149 ppi and 349/599 for 1-bit', () => {
    expect(verdict('gwg-digital-print', 95)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-digital-print', 96)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-digital-print', 149)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-digital-print', 150)).toEqual([]);
    expect(verdict('gwg-digital-print', 349, oneBit)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-digital-print', 599, oneBit)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-digital-print', 600, oneBit)).toEqual([]);
  });
  it('newspaper (GWG): 99/149 ppi', () => {
    expect(verdict('gwg-newspaper', 99)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('gwg-newspaper', 100)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('gwg-newspaper', 150)).toEqual([]);
  });
  it('screen: below 72 ppi a warning, below 96 information', () => {
    expect(verdict('screen', 71)).toEqual([['images.resolution-low', 'warn']]);
    expect(verdict('screen', 72)).toEqual([['images.resolution-marginal', 'info']]);
    expect(verdict('screen', 96)).toEqual([]);
  });
  it('the default profile keeps 150/225 ppi', () => {
    expect(verdict('default', 149)).toEqual([['images.resolution-low', 'error']]);
    expect(verdict('default', 224)).toEqual([['images.resolution-marginal', 'warn']]);
    expect(verdict('default', 225)).toEqual([]);
  });
  it('uses the lower of the x and y resolution', () => {
    const [f] = check('gwg-sheetfed-cmyk', [image(300, { ppiY: 120 })]);
    expect(f).toMatchObject({ checkId: 'images.resolution-low', measured: { effective_ppi: 120, ppi_x: 300, ppi_y: 120 } });
  });
  it('exempts images of 16 px or less on a side (GWG), not 17 px', () => {
    expect(verdict('gwg-sheetfed-cmyk', 10, { width: 16, height: 400 })).toEqual([]);
    expect(verdict('gwg-sheetfed-cmyk', 10, { width: 400, height: 16 })).toEqual([]);
    expect(verdict('gwg-sheetfed-cmyk', 10, { width: 17, height: 17 })).toEqual([['images.resolution-low', 'error']]);
  });
  it('skips images that only shape a soft mask', () => {
    expect(verdict('gwg-sheetfed-cmyk', 20, { within: 'softmask' })).toEqual([]);
  });
  it('says in a sentence what the image reaches and what the product needs, and points at it', () => {
    const [f] = check('gwg-sheetfed-cmyk', [image(112, { page: 2, bbox: [10, 20, 30, 40] })]);
    expect(f).toMatchObject({ page: 2, bbox: [10, 20, 30, 40], required: { min_ppi: 150 }, fix: { available: false, fixId: null } });
    expect(f!.message).toBe('The image on page 2 is 112 ppi where it is placed; this product needs at least 150 ppi, so it will print visibly blurred or pixelated.');
    expect(check('gwg-sheetfed-cmyk', [image(200)])[0]!.message).toBe('The image on page 1 is 200 ppi where it is placed; 225 ppi is recommended, so fine detail may look soft.');
  });
  it('groups placements on many pages into one finding, keeping the worst one\'s place and value', () => {
    const images = Array.from({ length: 300 }, (_, i) => image(i === 122 ? 50 : 120, { page: i + 1, bbox: [i, i, i + 1, i + 1] }));
    const found = check('gwg-sheetfed-cmyk', images);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ count: 300, page: 1, bbox: [122, 122, 123, 123], measured: { effective_ppi: 50 } });
    expect(found[0]!.pages).toHaveLength(300);
    expect(found[0]!.message).toBe(
      '300 image placements on pages 1–300 are below 150 ppi (lowest 50 ppi, page 123); this product needs at least 150 ppi, so they will print visibly blurred or pixelated.',
    );
  });
  it('reports 1-bit and continuous-tone images as separate findings with their own thresholds', () => {
    const found = check('gwg-sheetfed-cmyk', [image(100), image(500, oneBit)]);
    expect(found.map((f) => [f.required, f.message.startsWith('The 1-bit image')])).toEqual([
      [{ min_ppi: 150 }, false],
      [{ min_ppi: 550 }, true],
    ]);
  });
});

describe('images.16-bit', () => {
  it('is information in print profiles and off for screen', () => {
    const found = only(check('gwg-sheetfed-cmyk', [image(300, { bitsPerComponent: 16 })]), 'images.16-bit');
    expect(found[0]).toMatchObject({ severity: 'info', bbox: [72, 72, 300, 250] });
    expect(found[0]!.message).toBe('The image on page 1 (1000 × 800 px) has 16 bits per colour; most print workflows reduce it to 8 bits, so the extra data only makes the file larger.');
    expect(check('screen', [image(300, { bitsPerComponent: 16 })])).toEqual([]);
  });
});
