import { describe, expect, it } from 'vitest';
import { axialShading, form } from '../../../../support/content-fixtures';
import { interpretOne, rounded } from './support';

describe('paths: strokes, fills, clipping and the content box', () => {
  it('reports stroke widths in pt after the CTM, the thinner axis when scaled unevenly', async () => {
    const page = await interpretOne({
      content: [
        '0.1 w 0 0 m 100 0 l S',
        'q 0.5 0 0 0.5 0 0 cm 0.1 w 0 0 m 100 0 l S Q',
        'q 2 0 0 0.5 0 0 cm 0.2 w 0 100 m 100 100 l S Q',
        '0 w 0 200 m 100 200 l S',
        'q 0 1 -1 0 300 0 cm 0.3 w 0 0 m 100 0 l S Q',
      ].join('\n'),
    });
    expect(page.strokes.map((s) => [s.widthPt, s.count])).toEqual([
      [0.1, 2],
      [0.05, 1],
      [0, 1],
      [0.3, 1],
    ]);
  });

  it('applies UserUnit to stroke widths', async () => {
    const page = await interpretOne({ userUnit: 3, content: '0.1 w 0 0 m 10 0 l S' });
    expect(page.strokes[0]!.widthPt).toBe(0.3);
  });

  it('boxes a stroke by its path grown by half the line width, in page space', async () => {
    const page = await interpretOne({ content: 'q 2 0 0 2 10 10 cm 4 w 0 0 m 50 0 l S Q' });
    expect(page.strokes[0]!.bbox).toEqual([6, 6, 114, 14]);
  });

  it('boxes curves by their control points and rectangles by their corners', async () => {
    const page = await interpretOne({ content: '10 10 m 20 80 60 80 70 10 c f q 1 0 0 1 100 0 cm 0 0 20 -30 re f Q' });
    expect(page.colours[0]!.bbox).toEqual([10, 10, 70, 80]);
    expect(page.colours[0]!.union).toEqual([10, -30, 120, 80]);
  });

  it('does not paint a path ended with n, but clips with it', async () => {
    const page = await interpretOne({
      content: 'q 50 50 100 100 re W n /Sh sh Q',
      resources: { shadings: { Sh: axialShading({ colourSpace: 'DeviceGray', c0: [0], c1: [1] }) } },
    });
    expect(page.colours).toEqual([expect.objectContaining({ kind: 'shading', bbox: [50, 50, 150, 150] })]);
    expect(page.strokes).toEqual([]);
  });

  it('paints a shading without a clip over its BBox, else over the CropBox', async () => {
    const shading = axialShading({ colourSpace: 'DeviceGray', c0: [0], c1: [1], bbox: [0, 0, 10, 10] });
    const unbounded = axialShading({ colourSpace: 'DeviceRGB', c0: [0, 0, 0], c1: [1, 1, 1] });
    const page = await interpretOne({
      cropBox: [10, 20, 300, 400],
      content: 'q 2 0 0 2 5 5 cm /A sh Q /B sh',
      resources: { shadings: { A: shading, B: unbounded } },
    });
    expect(page.colours.map((c) => c.bbox)).toEqual([
      [5, 5, 25, 25],
      [10, 20, 300, 400],
    ]);
  });

  it('clips a form to its BBox for shadings painted inside it', async () => {
    const page = await interpretOne({
      content: '/Fm Do',
      resources: { xobjects: { Fm: form({ content: '/Sh sh', bbox: [0, 0, 40, 30], matrix: [1, 0, 0, 1, 100, 100], resources: { shadings: { Sh: axialShading({ colourSpace: 'DeviceCMYK', c0: [0, 0, 0, 0], c1: [0, 0, 0, 1] }) } } }) } },
    });
    expect(page.colours[0]!.bbox).toEqual([100, 100, 140, 130]);
  });

  it('keeps white vector paint out of the content box: a blank page with a white background is empty', async () => {
    const blank = await interpretOne({ content: '1 g 0 0 595 842 re f' });
    expect(blank.empty).toBe(true);
    expect(blank.contentBox).toBeNull();
    const drawn = await interpretOne({ content: '1 g 0 0 595 842 re f 0 g 10 20 30 40 re f' });
    expect(drawn.empty).toBe(false);
    expect(drawn.contentBox).toEqual([10, 20, 40, 60]);
  });

  it('reports a page without content as empty', async () => {
    const page = await interpretOne({ content: '' });
    expect(page).toMatchObject({ empty: true, contentBox: null, images: [], fonts: [], text: [], strokes: [], colours: [], maxTacPercent: null, limits: [] });
  });

  it('counts colour use by kind and space with a first box and a union', async () => {
    const page = await interpretOne({ content: '0 0 1 rg 0 0 10 10 re f 20 20 10 10 re f 1 0 0 RG 0 0 m 5 5 l S' });
    expect(page.colours.map((c) => [c.kind, c.space.label, c.count, rounded(c.bbox), rounded(c.union)])).toEqual([
      ['vector', 'DeviceRGB', 3, [0, 0, 10, 10], [-0.5, -0.5, 30, 30]],
    ]);
  });
});
