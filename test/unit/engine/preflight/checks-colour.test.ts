import { describe, expect, it } from 'vitest';
import { checkColour } from '../../../../lambdas/engine/preflight/checks-colour';
import { checkTransparency } from '../../../../lambdas/engine/preflight/checks-transparency';
import type { InventoryPage } from '../../../../lambdas/engine/preflight/inventory-page';
import { colourUse, inventoryPage, paint, paints, spaces, state } from './inventory-builders';
import { judge, only, severities } from './judge';

const colour = (profile: string, pages: InventoryPage[]) => judge(profile, (s) => checkColour(pages, s));
const transparency = (profile: string, pages: InventoryPage[]) => judge(profile, (s) => checkTransparency(pages, s));

describe('colour checks', () => {
  describe('colour.rgb (DeviceRGB)', () => {
    const rgbPages = [
      inventoryPage(1, { colours: [colourUse(spaces.rgb, 'text', { union: [10, 10, 50, 50] }), colourUse(spaces.rgb, 'image')] }),
      inventoryPage(2, { colours: [colourUse(spaces.indexed(spaces.rgb), 'image')] }),
    ];

    it('is an error in the CMYK profiles, one finding for the document that says what uses it and where', () => {
      for (const profile of ['gwg-sheetfed-cmyk', 'gwg-web-cmyk', 'gwg-newspaper', 'gwg-digital-print']) {
        const [f, ...rest] = colour(profile, rgbPages);
        expect(rest).toEqual([]);
        expect(f).toMatchObject({ checkId: 'colour.rgb', severity: 'error', page: 1, pages: [1, 2], count: 3, bbox: [10, 10, 50, 50], fix: { available: false, fixId: null } });
        expect(f!.message).toBe(
          'Uncalibrated RGB colour (DeviceRGB) is used for text and images on pages 1–2; the printer converts it to its inks as it sees fit, so the printed colours may differ from the screen. Convert to CMYK for this printing condition, or use ICC-based RGB where the product allows it.',
        );
      }
    });
    it('is only information in the default profile and silent for screen', () => {
      expect(severities(colour('default', rgbPages))).toEqual([['colour.rgb', 'info']]);
      expect(colour('screen', rgbPages)).toEqual([]);
    });
    it('does not count DeviceRGB that a DefaultRGB colour space calibrates; that is ICC-based RGB', () => {
      const page = inventoryPage(1, { colours: [colourUse(spaces.defaultedRgb(), 'vector')] });
      expect(severities(colour('gwg-sheetfed-cmyk', [page]))).toEqual([['colour.icc-rgb', 'error']]);
    });
    it('is silent for CMYK, gray and ICC CMYK', () => {
      const page = inventoryPage(1, { colours: [colourUse(spaces.cmyk, 'text'), colourUse(spaces.gray, 'vector'), colourUse(spaces.iccCmyk, 'image')] });
      expect(colour('gwg-sheetfed-cmyk', [page])).toEqual([]);
    });
  });

  describe('colour.icc-rgb', () => {
    const page = inventoryPage(1, { colours: [colourUse(spaces.iccRgb, 'image'), colourUse(spaces.iccRgb, 'vector')] });
    it('is an error for any ICC-based RGB in sheetfed CMYK', () => {
      const [f] = only(colour('gwg-sheetfed-cmyk', [page]), 'colour.icc-rgb');
      expect(f).toMatchObject({ severity: 'error', count: 2 });
      expect(f!.message).toContain('ICC-based RGB colour (ICCBased RGB) is used for vector graphics and images on page 1');
    });
    it('allows ICC-based RGB images in digital print and warns about other objects', () => {
      const [f] = only(colour('gwg-digital-print', [page]), 'colour.icc-rgb');
      expect(f).toMatchObject({ severity: 'warn', count: 1, measured: { kind: 'vector' } });
      const imagesOnly = inventoryPage(1, { colours: [colourUse(spaces.iccRgb, 'image')] });
      expect(colour('gwg-digital-print', [imagesOnly])).toEqual([]);
    });
    it('is off in the default profile', () => {
      expect(colour('default', [page])).toEqual([]);
    });
  });

  it('colour.lab: an error in CMYK profiles, a warning in digital print, information by default', () => {
    const page = inventoryPage(3, { colours: [colourUse(spaces.lab, 'vector')] });
    expect(severities(colour('gwg-sheetfed-cmyk', [page]))).toEqual([['colour.lab', 'error']]);
    expect(severities(colour('gwg-digital-print', [page]))).toEqual([['colour.lab', 'warn']]);
    expect(severities(colour('default', [page]))).toEqual([['colour.lab', 'info']]);
    expect(only(colour('default', [page]), 'colour.lab')[0]!.message).toMatch(/^Lab colour is used for vector graphics on page 3; /);
  });

  describe('colour.spot', () => {
    const gold = spaces.separation('Gold');
    const pages = [
      inventoryPage(1, { spotColours: ['Gold'], colours: [colourUse(gold, 'vector', { union: [0, 0, 20, 20] })] }),
      inventoryPage(2, { spotColours: ['Gold', 'PANTONE 185 C'], colours: [colourUse(gold, 'text'), colourUse(spaces.separation('PANTONE 185 C'), 'vector')] }),
    ];
    it('reports each spot colour with the pages and objects using it: an error in sheetfed CMYK', () => {
      const found = only(colour('gwg-sheetfed-cmyk', pages), 'colour.spot');
      expect(found.map((f) => [f.severity, f.pages ?? [f.page], f.bbox])).toEqual([
        ['error', [1, 2], [0, 0, 20, 20]],
        ['error', [2], [100, 100, 200, 120]],
      ]);
      expect(found[0]!.message).toBe(
        'The spot colour “Gold” is used for text and vector graphics on pages 1–2; it needs its own printing plate or is converted to CMYK, which can change its colour. Convert it to CMYK unless the order includes this ink.',
      );
    });
    it('is a warning in digital print and off for screen', () => {
      expect(only(colour('gwg-digital-print', pages), 'colour.spot').map((f) => f.severity)).toEqual(['warn', 'warn']);
      expect(colour('screen', pages)).toEqual([]);
    });
  });

  describe('colour.registration', () => {
    const all = spaces.separation('All');
    it('warns when the registration colour is used on the finished page', () => {
      const page = inventoryPage(1, { registration: true, colours: [colourUse(all, 'text', { union: [100, 100, 140, 110] })] });
      const [f] = colour('gwg-sheetfed-cmyk', [page]);
      expect(f).toMatchObject({ checkId: 'colour.registration', severity: 'warn', bbox: [100, 100, 140, 110] });
    });
    it('is silent for printer marks outside the trim', () => {
      const page = inventoryPage(1, { registration: true, colours: [colourUse(all, 'vector', { union: [0, 0, 8, 8] })] });
      expect(colour('gwg-sheetfed-cmyk', [page])).toEqual([]);
    });
  });

  describe('colour.tac (total area coverage)', () => {
    const withTac = (tac: number) => inventoryPage(1, { maxTacPercent: tac, paintedAreas: [{ page: 1, kind: 'vector', paint: paint(spaces.cmyk, { c: 1, m: 1, y: 1, k: tac / 100 - 3 }), state: state(), bbox: [1, 2, 3, 4], within: 'page' }] });
    it('follows each printing condition: 320 % sheetfed, 305 % web, 245 % newspaper', () => {
      expect(colour('gwg-sheetfed-cmyk', [withTac(321)]).map((f) => [f.severity, f.measured, f.required, f.bbox])).toEqual([['warn', { tac_percent: 321, kind: 'vector' }, { max_percent: 320 }, [1, 2, 3, 4]]]);
      expect(colour('gwg-sheetfed-cmyk', [withTac(320)])).toEqual([]);
      expect(colour('gwg-sheetfed-cmyk', [withTac(320.4)])).toEqual([]);
      expect(only(colour('gwg-web-cmyk', [withTac(306)]), 'colour.tac')).toHaveLength(1);
      expect(colour('gwg-web-cmyk', [withTac(305)])).toEqual([]);
      expect(only(colour('gwg-newspaper', [withTac(246)]), 'colour.tac')).toHaveLength(1);
      expect(colour('gwg-newspaper', [withTac(245)])).toEqual([]);
    });
    it('is off for digital print and screen', () => {
      expect(colour('gwg-digital-print', [withTac(390)])).toEqual([]);
      expect(colour('screen', [withTac(390)])).toEqual([]);
    });
    it('says how much ink, against which limit', () => {
      expect(colour('gwg-newspaper', [withTac(300)])[0]!.message).toBe(
        'Total ink reaches 300 % on page 1, above the 245 % this printing condition allows; the ink may not dry and can smear or set off.',
      );
    });
  });

  describe('overprint.white', () => {
    it('is an error for a white object set to overprint, located by its box', () => {
      const page = inventoryPage(4, {
        paintedAreas: [
          { page: 4, kind: 'text', paint: paints.white(), state: state({ overprint: true }), bbox: [50, 60, 70, 80], within: 'page' },
          { page: 4, kind: 'vector', paint: paints.white(), state: state(), bbox: [0, 0, 10, 10], within: 'page' },
          { page: 4, kind: 'vector', paint: paints.black(), state: state({ overprint: true }), bbox: [0, 0, 10, 10], within: 'page' },
        ],
      });
      const [f, ...rest] = colour('gwg-sheetfed-cmyk', [page]);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ checkId: 'overprint.white', severity: 'error', page: 4, bbox: [50, 60, 70, 80] });
      expect(f!.message).toBe('A white object (text) on page 4 is set to overprint, so it disappears in print. Turn overprint off for white objects.');
    });
  });
});

describe('transparency checks', () => {
  const group = (cs: typeof spaces.rgb | null) => inventoryPage(2, { transparency: [{ page: 2, kind: 'group', groupColourSpace: cs, count: 1, bbox: [0, 0, 100, 100] }] });

  it('transparency.group-colour-space: an RGB blending space is an error in CMYK profiles, a warning in digital print', () => {
    const [f] = only(transparency('gwg-sheetfed-cmyk', [group(spaces.rgb)]), 'transparency.group-colour-space');
    expect(f).toMatchObject({ severity: 'error', page: 2, bbox: [0, 0, 100, 100], measured: { colourSpace: 'DeviceRGB' } });
    expect(f!.message).toMatch(/^A transparency group on page 2 blends in DeviceRGB instead of CMYK;/);
    expect(only(transparency('gwg-digital-print', [group(spaces.iccRgb)]), 'transparency.group-colour-space')[0]!.severity).toBe('warn');
  });
  it('accepts a CMYK blending space, or none stated', () => {
    expect(only(transparency('gwg-sheetfed-cmyk', [group(spaces.cmyk)]), 'transparency.group-colour-space')).toEqual([]);
    expect(only(transparency('gwg-sheetfed-cmyk', [group(null)]), 'transparency.group-colour-space')).toEqual([]);
  });
  it('transparency.used is information in print profiles and off for screen', () => {
    const page = inventoryPage(1, { transparency: [{ page: 1, kind: 'alpha', value: 0.5, count: 3, bbox: [5, 5, 9, 9] }, { page: 1, kind: 'blend-mode', value: 'Multiply', count: 1, bbox: null }] });
    const [f] = transparency('gwg-sheetfed-cmyk', [page]);
    expect(f).toMatchObject({ checkId: 'transparency.used', severity: 'info', bbox: [5, 5, 9, 9] });
    expect(f!.message).toBe('Transparency (opacity below 100 % and blend modes) is used on page 1; the printer flattens it, which is usually fine — check the proof where transparent objects overlap.');
    expect(transparency('screen', [page])).toEqual([]);
  });
});
