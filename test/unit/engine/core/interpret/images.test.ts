import { describe, expect, it } from 'vitest';
import { form, image, standardFont, tilingPattern, type3Font } from '../../../../support/content-fixtures';
import { interpretOne, rounded } from './support';

const photo = () => image({ width: 300, height: 150 });

describe('image placement and effective resolution', () => {
  it('places an image by the CTM and computes ppi as pixels over the placed size in inches', async () => {
    const page = await interpretOne({ content: 'q 144 0 0 72 72 100 cm /Im1 Do Q', resources: { xobjects: { Im1: photo() } } });
    expect(page.images).toHaveLength(1);
    const [img] = page.images;
    expect(img).toMatchObject({ page: 1, widthPx: 300, heightPx: 150, inline: false, within: 'page', matrix: [144, 0, 0, 72, 72, 100], bbox: [72, 100, 216, 172] });
    expect(img!.ppiX).toBeCloseTo(150, 6);
    expect(img!.ppiY).toBeCloseTo(150, 6);
    expect(img!.objectNumber).toEqual(expect.any(Number));
    expect(img!.colourSpace?.label).toBe('DeviceRGB');
  });

  it('measures a rotated image along its own axes', async () => {
    const page = await interpretOne({ content: 'q 0 144 -72 0 300 100 cm /Im1 Do Q', resources: { xobjects: { Im1: photo() } } });
    const [img] = page.images;
    expect(img!.ppiX).toBeCloseTo(150, 6);
    expect(img!.ppiY).toBeCloseTo(150, 6);
    expect(rounded(img!.bbox)).toEqual([228, 100, 300, 244]);
  });

  it('measures a skewed image by the length of each side (as pdfimages does)', async () => {
    const page = await interpretOne({ content: 'q 144 0 30 72 0 0 cm /Im1 Do Q', resources: { xobjects: { Im1: photo() } } });
    const [img] = page.images;
    expect(img!.ppiX).toBeCloseTo(150, 6);
    expect(img!.ppiY).toBeCloseTo(150 / (Math.hypot(30, 72) / 72), 6);
  });

  it('composes nested forms with their /Matrix', async () => {
    const inner = form({ content: 'q 100 0 0 50 0 0 cm /Im1 Do Q', matrix: [2, 0, 0, 2, 0, 0], resources: { xobjects: { Im1: photo() } } });
    const outer = form({ content: '/Inner Do', matrix: [0.5, 0, 0, 0.5, 10, 20], resources: { xobjects: { Inner: inner } } });
    const page = await interpretOne({ content: 'q 1 0 0 1 100 100 cm /Outer Do Q', resources: { xobjects: { Outer: outer } } });
    const [img] = page.images;
    expect(img).toMatchObject({ matrix: [100, 0, 0, 50, 110, 120], within: 'form' });
    expect(img!.ppiX).toBeCloseTo(216, 6);
  });

  it('applies UserUnit to the physical size, so the same placement has fewer ppi', async () => {
    const page = await interpretOne({ userUnit: 2, content: 'q 144 0 0 72 0 0 cm /Im1 Do Q', resources: { xobjects: { Im1: photo() } } });
    expect(page.images[0]!.ppiX).toBeCloseTo(75, 6);
    expect(page.images[0]!.ppiY).toBeCloseTo(75, 6);
  });

  it('lists each placement of one image object separately', async () => {
    const im = photo();
    const page = await interpretOne({ content: 'q 144 0 0 72 0 0 cm /Im1 Do Q q 288 0 0 144 0 200 cm /Im1 Do Q', resources: { xobjects: { Im1: im } } });
    expect(page.images.map((i) => Math.round(i.ppiX))).toEqual([150, 75]);
    expect(page.images[0]!.objectNumber).toBe(page.images[1]!.objectNumber);
  });

  it('reads inline images, with abbreviated keys and filters', async () => {
    const page = await interpretOne({ content: 'q 72 0 0 36 10 10 cm BI /W 8 /H 4 /BPC 8 /CS /G /F /AHx ID\n' + '00'.repeat(32) + '>\nEI Q' });
    expect(page.images).toHaveLength(1);
    expect(page.images[0]).toMatchObject({ inline: true, xobject: null, objectNumber: null, widthPx: 8, heightPx: 4, bitsPerComponent: 8, filters: ['ASCIIHexDecode'] });
    expect(page.images[0]!.colourSpace?.family).toBe('DeviceGray');
    expect(page.images[0]!.ppiX).toBeCloseTo(8, 6);
  });

  it('describes masks, soft masks, filters and stencil fills', async () => {
    const page = await interpretOne({
      content: 'q 100 0 0 100 0 0 cm /A Do Q q 0 0 1 rg 100 0 0 100 0 200 cm /B Do Q q 100 0 0 100 0 400 cm /C Do Q',
      resources: {
        xobjects: {
          A: image({ width: 10, height: 10, softMask: true, mask: false }),
          B: image({ width: 16, height: 16, imageMask: true }),
          C: image({ width: 20, height: 20, colourSpace: 'DeviceCMYK', filter: 'DCTDecode', mask: true }),
        },
      },
    });
    const [a, b, c] = page.images;
    expect(a).toMatchObject({ softMask: true, mask: false, imageMask: false, fill: null, filters: ['FlateDecode'] });
    expect(b).toMatchObject({ imageMask: true, colourSpace: null, bitsPerComponent: 1 });
    expect(b!.fill?.space.label).toBe('DeviceRGB');
    expect(c).toMatchObject({ mask: true, filters: ['DCTDecode'] });
    expect(c!.colourSpace?.label).toBe('DeviceCMYK');
    expect(page.transparency.find((t) => t.kind === 'image-soft-mask')).toMatchObject({ count: 1, bbox: [0, 0, 100, 100] });
  });

  it('lists an image drawn by a Type 3 glyph once per glyph shown, placed by FontMatrix × text matrix', async () => {
    const glyphFont = type3Font({
      glyphs: { box: { code: 65, width: 1000, content: '1000 0 0 0 1000 1000 d1 q 1000 0 0 1000 0 0 cm /Dot Do Q' } },
      resources: { xobjects: { Dot: image({ width: 100, height: 100, imageMask: true }) } },
    });
    const page = await interpretOne({ content: 'BT /T3 10 Tf 100 100 Td (AA) Tj ET', resources: { fonts: { T3: glyphFont } } });
    expect(page.images).toHaveLength(2);
    expect(page.images.map((i) => i.within)).toEqual(['type3', 'type3']);
    expect(page.images.map((i) => rounded(i.matrix))).toEqual([
      [10, 0, 0, 10, 100, 100],
      [10, 0, 0, 10, 110, 100],
    ]);
    expect(page.images[0]!.ppiX).toBeCloseTo(720, 6);
  });

  it('lists an image in a tiling pattern cell, placed by the pattern matrix', async () => {
    const tile = tilingPattern({
      content: 'q 20 0 0 20 0 0 cm /Im Do Q',
      bbox: [0, 0, 20, 20],
      matrix: [0.5, 0, 0, 0.5, 0, 0],
      resources: { xobjects: { Im: image({ width: 40, height: 40 }) } },
    });
    const page = await interpretOne({ content: '/Pattern cs /P1 scn 0 0 200 200 re f 0 300 200 200 re f', resources: { patterns: { P1: tile } } });
    expect(page.images).toHaveLength(1);
    expect(page.images[0]).toMatchObject({ within: 'pattern', matrix: [10, 0, 0, 10, 0, 0] });
    expect(page.images[0]!.ppiX).toBeCloseTo(288, 6);
  });

  it('finds images through page resources inherited from the page tree and forms without resources of their own', async () => {
    const page = await interpretOne({
      inheritResources: true,
      content: '/Fm Do q 100 0 0 100 200 200 cm /Im1 Do Q',
      resources: { xobjects: { Im1: photo(), Fm: form({ content: 'q 50 0 0 50 0 0 cm /Im1 Do Q', resources: null }) } },
    });
    expect(page.images.map((i) => i.within)).toEqual(['form', 'page']);
    expect(page.images[0]!.objectNumber).toBe(page.images[1]!.objectNumber);
  });

  it('counts images and their boxes as live content and content', async () => {
    const page = await interpretOne({ content: 'q 100 0 0 50 20 30 cm /Im1 Do Q', resources: { xobjects: { Im1: photo() }, fonts: { F1: standardFont('Helvetica') } } });
    expect(page.liveContent).toEqual([{ kind: 'image', bbox: [20, 30, 120, 80] }]);
    expect(page.contentBox).toEqual([20, 30, 120, 80]);
    expect(page.empty).toBe(false);
    expect(page.colours).toEqual([expect.objectContaining({ kind: 'image', count: 1, bbox: [20, 30, 120, 80] })]);
  });
});
