import { describe, expect, it } from 'vitest';
import { axialShading, deviceN, iccBased, image, indexed, lab, separation, shadingPattern, standardFont, tilingPattern } from '../../../../support/content-fixtures';
import { interpretOne } from './support';

const square = '0 0 100 100 re f';

describe('colour spaces', () => {
  it('names Separation and DeviceN colorants, lists spot colours and recognises registration (All)', async () => {
    const page = await interpretOne({
      content: `/Spot cs 0.5 scn ${square} /Reg cs 1 scn ${square} /N cs 0.2 0.3 1 scn ${square}`,
      resources: {
        colourSpaces: {
          Spot: separation('PANTONE 185 C'),
          Reg: separation('All'),
          N: deviceN(['Cyan', 'Magenta', 'PANTONE 871 C']),
        },
      },
    });
    expect(page.colours.map((c) => c.space.label)).toEqual(['Separation PANTONE 185 C', 'Separation All', 'DeviceN (Cyan, Magenta, PANTONE 871 C)']);
    expect(page.colours[2]!.space.colorants).toEqual(['Cyan', 'Magenta', 'PANTONE 871 C']);
    expect(page.colours[0]!.space.base?.family).toBe('DeviceCMYK');
    expect(page.spotColours).toEqual(['PANTONE 185 C', 'PANTONE 871 C']);
    expect(page.registration).toBe(true);
    const inks = page.paintedAreas.map((a) => a.paint.inks);
    expect(inks).toContainEqual({ c: 0, m: 0, y: 0, k: 0, spots: { 'PANTONE 185 C': 0.5 } });
    expect(inks).toContainEqual({ c: 1, m: 1, y: 1, k: 1, spots: {} });
    expect(inks).toContainEqual({ c: 0.2, m: 0.3, y: 0, k: 0, spots: { 'PANTONE 871 C': 1 } });
  });

  it('reads an ICC profile\'s component count and header colour space', async () => {
    const page = await interpretOne({
      content: `/RGB cs 1 0 0 sc ${square} q 10 0 0 10 0 0 cm /Im Do Q`,
      resources: { colourSpaces: { RGB: iccBased(3) }, xobjects: { Im: image({ width: 2, height: 2, colourSpace: iccBased(4) }) } },
    });
    const vector = page.colours.find((c) => c.kind === 'vector')!.space;
    expect(vector).toMatchObject({ family: 'ICCBased', components: 3, label: 'ICCBased RGB', icc: { n: 3, colourSpace: 'RGB' } });
    expect(page.images[0]!.colourSpace).toMatchObject({ label: 'ICCBased CMYK', icc: { n: 4, colourSpace: 'CMYK' } });
  });

  it('marks device colour replaced by a Default space of the resources', async () => {
    const page = await interpretOne({ content: `1 0 0 rg ${square} 0 0 0 1 k ${square}`, resources: { colourSpaces: { DefaultRGB: iccBased(3) } } });
    const rgb = page.colours.find((c) => c.space.family === 'DeviceRGB')!.space;
    expect(rgb).toMatchObject({ defaulted: true, label: 'DeviceRGB (DefaultRGB ICCBased RGB)' });
    expect(rgb.defaultSpace?.family).toBe('ICCBased');
    expect(page.colours.find((c) => c.space.family === 'DeviceCMYK')!.space.defaulted).toBeUndefined();
  });

  it('resolves Indexed (with its base and lookup), Lab and inline-image abbreviations', async () => {
    const page = await interpretOne({
      content: `/Ix cs 1 sc ${square} /L cs 50 0 0 sc ${square} q 10 0 0 10 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /CMYK ID\n\x00\x00\x00\x00\nEI Q`,
      resources: { colourSpaces: { Ix: indexed('DeviceCMYK', [[0, 0, 0, 0], [0, 0, 0, 255]]), L: lab() } },
    });
    expect(page.colours.map((c) => `${c.kind} ${c.space.label}`)).toEqual(['vector Indexed DeviceCMYK', 'vector Lab', 'image DeviceCMYK']);
    // Index 1 of the lookup is 0/0/0/255: solid black.
    expect(page.paintedAreas[0]!.paint).toMatchObject({ tacPercent: 100, inks: { c: 0, m: 0, y: 0, k: 1, spots: {} } });
  });
});

describe('paints: white, overprint, rich black and coverage', () => {
  it('finds white objects set to overprint, for fills and strokes', async () => {
    const page = await interpretOne({
      content: `/OP gs 0 0 0 0 k ${square} 1 G 0 0 m 50 50 l S 1 1 1 rg ${square} 0 0 0 1 k ${square}`,
      resources: { extGStates: { OP: { OP: true, OPM: 1 } } },
    });
    const white = page.paintedAreas.filter((a) => a.paint.white);
    expect(white.map((a) => a.paint.space.family)).toEqual(['DeviceCMYK', 'DeviceGray', 'DeviceRGB']);
    expect(white.every((a) => a.state.overprint && a.state.overprintMode === 1)).toBe(true);
    // op follows OP when only OP is given; the black is no white.
    expect(page.paintedAreas.find((a) => !a.paint.white)).toMatchObject({ state: { overprint: true }, paint: { tacPercent: 100 } });
  });

  it('sets fill and stroke overprint separately with OP and op', async () => {
    const page = await interpretOne({
      content: `/G gs 0 0 0 0 k 0 0 0 0 K 0 0 100 100 re B`,
      resources: { extGStates: { G: { OP: true, op: false } } },
    });
    const whiteOverprint = page.paintedAreas.filter((a) => a.paint.white && a.state.overprint);
    expect(whiteOverprint).toHaveLength(1);
    expect(page.strokes[0]!.state.overprint).toBe(true);
    expect(page.paintedAreas.filter((a) => a.paint.white && !a.state.overprint)).toHaveLength(1);
  });

  it('gives the inks of a text colour and counts its colorants', async () => {
    const page = await interpretOne({
      content: 'BT /F1 6 Tf 0 0 Td 0.6 0.4 0.4 1 k (rich) Tj 0 0 0 1 k (plain) Tj ET',
      resources: { fonts: { F1: standardFont('Helvetica') } },
    });
    const [rich, plain] = page.text;
    expect(rich!.fill).toMatchObject({ inks: { c: 0.6, m: 0.4, y: 0.4, k: 1 }, colorantCount: 4, tacPercent: 240 });
    expect(plain!.fill).toMatchObject({ inks: { c: 0, m: 0, y: 0, k: 1 }, colorantCount: 1, tacPercent: 100 });
  });

  it('takes the page TAC from vectors, shadings and sampled CMYK images, highest first', async () => {
    const page = await interpretOne({
      content: [
        `0.9 0.9 0.9 1 k ${square}`,
        'q 0 0 200 200 re W n /Sh sh Q',
        'q 10 0 0 10 300 300 cm /Dark Do Q',
        'q 10 0 0 10 300 400 cm /Jpeg Do Q',
      ].join('\n'),
      resources: {
        shadings: { Sh: axialShading({ colourSpace: 'DeviceCMYK', c0: [0, 0, 0, 0], c1: [1, 1, 1, 0.5] }) },
        xobjects: {
          Dark: image({ width: 4, height: 4, colourSpace: 'DeviceCMYK', pixel: [255, 255, 255, 255] }),
          Jpeg: image({ width: 4, height: 4, colourSpace: 'DeviceCMYK', filter: 'DCTDecode' }),
        },
      },
    });
    expect(page.maxTacPercent).toBe(400);
    expect(page.paintedAreas.map((a) => [a.kind, a.paint.tacPercent])).toEqual([
      ['image', 400],
      ['vector', 370],
      ['shading', 350],
    ]);
    // The shading fills the clip.
    expect(page.paintedAreas[2]!.bbox).toEqual([0, 0, 200, 200]);
  });

  it('samples ICC CMYK images and honours an inverting /Decode', async () => {
    const page = await interpretOne({
      content: 'q 10 0 0 10 0 0 cm /A Do Q',
      resources: { xobjects: { A: image({ width: 8, height: 8, colourSpace: iccBased(4), pixel: [0, 0, 255, 255], decode: [1, 0, 1, 0, 1, 0, 1, 0] }) } },
    });
    expect(page.maxTacPercent).toBe(200);
  });

  it('does not sample when the image sampling budget is spent', async () => {
    const page = await interpretOne(
      { content: 'q 10 0 0 10 0 0 cm /A Do Q', resources: { xobjects: { A: image({ width: 8, height: 8, colourSpace: 'DeviceCMYK', pixel: [255, 255, 255, 255] }) } } },
      { imageSamplingBytes: 0 },
    );
    expect(page.maxTacPercent).toBeNull();
  });

  it('paints with patterns: a shading pattern by its shading, an uncoloured tiling pattern by its scn colour', async () => {
    const page = await interpretOne({
      content: `/Pattern cs /Sh scn ${square} /PC cs 0 0 0 1 /Tile scn 0 200 100 100 re f`,
      resources: {
        patterns: {
          Sh: shadingPattern(axialShading({ colourSpace: 'DeviceCMYK', c0: [0, 0, 0, 0], c1: [0, 0, 1, 1] })),
          Tile: tilingPattern({ content: '0 0 5 5 re f', paintType: 2 }),
        },
        colourSpaces: { PC: ['/Pattern', '/DeviceCMYK'] },
      },
    });
    expect(page.colours.map((c) => `${c.kind} ${c.space.label}`)).toEqual(['shading DeviceCMYK', 'vector Pattern DeviceCMYK', 'vector DeviceCMYK']);
    const patternPaints = page.paintedAreas.filter((a) => a.paint.pattern);
    expect(patternPaints.map((a) => a.paint.tacPercent).sort()).toEqual([100, 200]);
  });
});
