/**
 * A colour, as preflight judges it: the ink it puts down per process and spot
 * colorant, whether that is no ink at all (paper white), how many colorants it
 * uses, total area coverage. See `Inks` in types.ts for the
 * conventions (gray g is K = 1 − g, Separation All is registration, None puts
 * nothing down).
 *
 * Paints are interned per document: the same space and components give the
 * same object, so the collector groups by identity and a page of black text
 * builds one paint, not one per text run.
 */
import type { ColourSpaceInfo, Inks, PaintSummary } from './types';
import { indexedLookup } from './colour-space-info';

const PROCESS: Record<string, 'c' | 'm' | 'y' | 'k'> = { Cyan: 'c', Magenta: 'm', Yellow: 'y', Black: 'k' };

export class Paints {
  private readonly interned = new Map<string, PaintSummary>();
  private readonly ids = new Map<ColourSpaceInfo, number>();
  private nextId = 1;

  /** The paint of a flat colour: `comps` are the operands of sc/scn/g/rg/k as given (clamped here). */
  flat(space: ColourSpaceInfo, comps: readonly number[]): PaintSummary {
    let key = `${this.idOf(space)}:`;
    for (let i = 0; i < comps.length; i++) key += i === 0 ? comps[i] : `,${comps[i]}`;
    let paint = this.interned.get(key);
    if (!paint) {
      paint = summarise(space, inksOf(space, comps), false, whiteWithoutInks(space, comps));
      this.interned.set(key, paint);
    }
    return paint;
  }

  /** A pattern: inks of its underlying colour for uncoloured tiling patterns, of its shading estimate for shading patterns, else none. */
  pattern(space: ColourSpaceInfo, key: string, inks: Inks | null): PaintSummary {
    const k = `P${this.idOf(space)}:${key}`;
    let paint = this.interned.get(k);
    if (!paint) {
      paint = summarise(space, inks, true, false);
      this.interned.set(k, paint);
    }
    return paint;
  }

  /** A paint from inks computed elsewhere (a sampled image's darkest pixel, a shading's extreme). */
  fromInks(space: ColourSpaceInfo, key: string, inks: Inks | null): PaintSummary {
    const k = `I${this.idOf(space)}:${key}`;
    let paint = this.interned.get(k);
    if (!paint) {
      paint = summarise(space, inks, false, false);
      this.interned.set(k, paint);
    }
    return paint;
  }

  private idOf(space: ColourSpaceInfo): number {
    let id = this.ids.get(space);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(space, id);
    }
    return id;
  }
}

function summarise(space: ColourSpaceInfo, inks: Inks | null, pattern: boolean, whiteWithoutInks: boolean): PaintSummary {
  if (!inks) return { space, inks: null, white: whiteWithoutInks, colorantCount: null, tacPercent: null, pattern };
  let count = 0;
  let total = inks.c + inks.m + inks.y + inks.k;
  for (const v of [inks.c, inks.m, inks.y, inks.k]) if (v > 0) count++;
  for (const n in inks.spots) {
    const v = inks.spots[n]!;
    total += v;
    if (v > 0) count++;
  }
  return {
    space,
    inks,
    white: count === 0 && !isNothing(space),
    colorantCount: count,
    tacPercent: Math.round(total * 10000) / 100,
    pattern,
  };
}

/** A Separation or DeviceN of only `None` colorants paints nothing at all: not even white. */
function isNothing(space: ColourSpaceInfo): boolean {
  return (space.family === 'Separation' || space.family === 'DeviceN') && (space.colorants?.length ?? 0) > 0 && space.colorants!.every((c) => c === 'None');
}

const clamp = (v: number | undefined): number => (v === undefined || !(v > 0) ? 0 : v >= 1 ? 1 : v);

/** Ink for a colour in a space, or null when the space is not in ink terms. */
export function inksOf(space: ColourSpaceInfo, comps: readonly number[], depth = 0): Inks | null {
  switch (space.family) {
    case 'DeviceGray':
    case 'CalGray':
      return { c: 0, m: 0, y: 0, k: 1 - clamp(comps[0]), spots: {} };
    case 'DeviceCMYK':
      return { c: clamp(comps[0]), m: clamp(comps[1]), y: clamp(comps[2]), k: clamp(comps[3]), spots: {} };
    case 'ICCBased': {
      const kind = space.icc?.colourSpace ?? (space.components === 1 ? 'GRAY' : space.components === 4 ? 'CMYK' : null);
      if (kind === 'GRAY') return { c: 0, m: 0, y: 0, k: 1 - clamp(comps[0]), spots: {} };
      if (kind === 'CMYK') return { c: clamp(comps[0]), m: clamp(comps[1]), y: clamp(comps[2]), k: clamp(comps[3]), spots: {} };
      return null;
    }
    case 'Separation':
    case 'DeviceN': {
      const inks: Inks = { c: 0, m: 0, y: 0, k: 0, spots: {} };
      const names = space.colorants ?? [];
      for (let i = 0; i < names.length; i++) addColorant(inks, names[i]!, clamp(comps[i]));
      return inks;
    }
    case 'Indexed': {
      const base = space.base;
      const lookup = indexedLookup.get(space);
      if (!base || !lookup || depth > 2) return null;
      const n = base.components;
      const index = Math.max(0, Math.min(lookup.hival, Math.round(comps[0] ?? 0)));
      const entry: number[] = [];
      for (let i = 0; i < n; i++) entry.push((lookup.table[index * n + i] ?? 0) / 255);
      return inksOf(base, entry, depth + 1);
    }
    default:
      return null;
  }
}

export function addColorant(inks: Inks, colorant: string, tint: number): void {
  if (colorant === 'None') return;
  if (colorant === 'All') {
    inks.c = Math.max(inks.c, tint);
    inks.m = Math.max(inks.m, tint);
    inks.y = Math.max(inks.y, tint);
    inks.k = Math.max(inks.k, tint);
    return;
  }
  const process = PROCESS[colorant];
  if (process) inks[process] = Math.max(inks[process], tint);
  else inks.spots[colorant] = Math.max(inks.spots[colorant] ?? 0, tint);
}

/** White for spaces not in ink terms: RGB 1/1/1, Lab L=100 a=b=0. */
function whiteWithoutInks(space: ColourSpaceInfo, comps: readonly number[]): boolean {
  const family = space.family === 'ICCBased' ? (space.icc?.colourSpace ?? (space.components === 3 ? 'RGB' : '')) : space.family;
  if (family === 'DeviceRGB' || family === 'CalRGB' || family === 'RGB') return comps.length >= 3 && comps[0]! >= 1 && comps[1]! >= 1 && comps[2]! >= 1;
  if (family === 'Lab') return comps.length >= 3 && comps[0]! >= 100 && Math.abs(comps[1]!) < 0.5 && Math.abs(comps[2]!) < 0.5;
  return false;
}
