/**
 * Hand-built content inventories for specifying checks: colour spaces, paints
 * and page contents as the interpreter reports them (core/interpret/types.ts),
 * with only what a test is about spelled out.
 */
import type {
  ColourSpaceInfo,
  ColourUse,
  Inks,
  ObjectKind,
  PageInventory,
  PaintState,
  PaintSummary,
  PlacedImage,
  StrokeGroup,
  TextGroup,
} from '../../../../lambdas/engine/core/interpret/types';
import type { Rect } from '../../../../lambdas/engine/core/page-boxes';
import type { InventoryPage } from '../../../../lambdas/engine/preflight/inventory-page';
import { emptyInventory } from '../../../../lambdas/engine/preflight/inventory-page';

export const spaces = {
  rgb: { family: 'DeviceRGB', components: 3, label: 'DeviceRGB' } as ColourSpaceInfo,
  cmyk: { family: 'DeviceCMYK', components: 4, label: 'DeviceCMYK' } as ColourSpaceInfo,
  gray: { family: 'DeviceGray', components: 1, label: 'DeviceGray' } as ColourSpaceInfo,
  iccRgb: { family: 'ICCBased', components: 3, label: 'ICCBased RGB', icc: { n: 3, colourSpace: 'RGB' } } as ColourSpaceInfo,
  iccCmyk: { family: 'ICCBased', components: 4, label: 'ICCBased CMYK', icc: { n: 4, colourSpace: 'CMYK' } } as ColourSpaceInfo,
  lab: { family: 'Lab', components: 3, label: 'Lab' } as ColourSpaceInfo,
  separation: (colorant: string): ColourSpaceInfo => ({ family: 'Separation', components: 1, label: `Separation ${colorant}`, colorants: [colorant], base: spaces.cmyk }),
  indexed: (base: ColourSpaceInfo): ColourSpaceInfo => ({ family: 'Indexed', components: 1, label: `Indexed ${base.label}`, base }),
  defaultedRgb: (): ColourSpaceInfo => ({ family: 'DeviceRGB', components: 3, label: 'DeviceRGB (DefaultRGB ICCBased RGB)', defaulted: true, defaultSpace: spaces.iccRgb }),
};

/** A paint from its inks in percent (c, m, y, k, and spots by name); RGB and Lab paints have no inks. */
export function paint(space: ColourSpaceInfo, inks: Partial<Omit<Inks, 'spots'>> & { spots?: Record<string, number> } | null, white = false): PaintSummary {
  if (inks === null) return { space, inks: null, white, colorantCount: null, tacPercent: null, pattern: false };
  const full: Inks = { c: inks.c ?? 0, m: inks.m ?? 0, y: inks.y ?? 0, k: inks.k ?? 0, spots: inks.spots ?? {} };
  const values = [full.c, full.m, full.y, full.k, ...Object.values(full.spots)];
  const tac = values.reduce((a, b) => a + b, 0) * 100;
  return {
    space,
    inks: full,
    white: values.every((v) => v === 0),
    colorantCount: values.filter((v) => v > 0).length,
    tacPercent: tac,
    pattern: false,
  };
}

export const paints = {
  black: () => paint(spaces.cmyk, { k: 1 }),
  richBlack: () => paint(spaces.cmyk, { c: 0.6, m: 0.4, y: 0.4, k: 1 }),
  red: () => paint(spaces.cmyk, { m: 1, y: 1 }),
  white: () => paint(spaces.cmyk, {}),
  rgbBlack: () => paint(spaces.rgb, null),
};

export function state(over: Partial<PaintState> = {}): PaintState {
  return { overprint: false, overprintMode: 0, alpha: 1, blendMode: 'Normal', softMask: false, ...over };
}

const BOX: Rect = [100, 100, 200, 120];

export function text(over: Partial<TextGroup> & { sizePt: number }): TextGroup {
  return { page: 1, font: null, fontName: 'Helvetica', painting: 'fill', fill: paints.black(), stroke: null, state: state(), within: 'page', count: 1, bbox: BOX, union: BOX, ...over };
}

export function stroke(over: Partial<StrokeGroup> & { widthPt: number }): StrokeGroup {
  return { page: 1, stroke: paints.black(), state: state(), count: 1, bbox: BOX, union: BOX, ...over };
}

export function colourUse(space: ColourSpaceInfo, kind: ObjectKind, over: Partial<ColourUse> = {}): ColourUse {
  return { page: 1, kind, space, count: 1, bbox: BOX, union: BOX, within: ['page'], ...over };
}

export function placedImage(over: Partial<PlacedImage> & { widthPx: number; heightPx: number; ppiX: number; ppiY: number }): PlacedImage {
  return {
    page: 1,
    xobject: null,
    objectNumber: 12,
    inline: false,
    bitsPerComponent: 8,
    colourSpace: spaces.cmyk,
    filters: ['DCTDecode'],
    imageMask: false,
    softMask: false,
    mask: false,
    matrix: [144, 0, 0, 144, 72, 72],
    bbox: [72, 72, 216, 216],
    fill: null,
    state: state(),
    within: 'page',
    ...over,
  };
}

/** A4 trim with 3 mm bleed on a 216 × 303 mm sheet, in points. */
export const A4_TRIM: Rect = [8.5, 8.5, 603.78, 850.39];

/** A page for the content checks: its number, an A4 trim, and the inventory parts given. */
export function inventoryPage(page: number, parts: Partial<PageInventory> = {}, trim: Rect = A4_TRIM): InventoryPage {
  return { page, trim, userUnit: 1, inventory: { ...emptyInventory(page), empty: false, ...parts } };
}
