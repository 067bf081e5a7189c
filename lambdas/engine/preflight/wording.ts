/**
 * Small pieces of the sentences findings are written in, shared by the check
 * modules so every message reads the same way.
 */
import type { ColourSpaceInfo, ObjectKind } from '../core/interpret/types';
import { num } from './findings';

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The first `max` items as a list, then "and N more". */
export function shortList(items: readonly string[], max = 5): string {
  if (items.length <= max) return listText(items);
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

const KIND_TEXT: Record<ObjectKind, string> = { text: 'text', vector: 'vector graphics', image: 'images', shading: 'gradients' };

/** "text and images", in a fixed order. */
export function kindsText(kinds: Iterable<ObjectKind>): string {
  const set = new Set(kinds);
  return listText((Object.keys(KIND_TEXT) as ObjectKind[]).filter((k) => set.has(k)).map((k) => KIND_TEXT[k]));
}

/** "210 × 297 mm". */
export const dims = (w: unknown, h: unknown): string => `${num(Number(w))} × ${num(Number(h))} mm`;

export const quoted = (s: string): string => `“${s}”`;

/** What a colour space is, in terms of the inks a printer would need. */
export type ColourModel = 'device-rgb' | 'icc-rgb' | 'lab' | 'cmyk' | 'gray' | 'spot' | 'pattern' | 'unknown';

/**
 * Indexed and Pattern spaces are judged by their base; a device space a
 * Default* colour space replaced is calibrated (ISO 32000-1 8.6.5.6).
 */
export function colourModel(space: ColourSpaceInfo, depth = 0): ColourModel {
  if (space.defaulted && space.defaultSpace && depth < 4) return colourModel(space.defaultSpace, depth + 1);
  switch (space.family) {
    case 'DeviceRGB':
      return space.defaulted ? 'icc-rgb' : 'device-rgb';
    case 'CalRGB':
      return 'icc-rgb';
    case 'DeviceCMYK':
      return 'cmyk';
    case 'DeviceGray':
    case 'CalGray':
      return 'gray';
    case 'Lab':
      return 'lab';
    case 'ICCBased': {
      const cs = space.icc?.colourSpace?.trim().toUpperCase() ?? null;
      if (cs === 'RGB') return 'icc-rgb';
      if (cs === 'LAB') return 'lab';
      if (cs === 'CMYK') return 'cmyk';
      if (cs === 'GRAY') return 'gray';
      const n = space.icc?.n ?? space.components;
      return n === 3 ? 'icc-rgb' : n === 4 ? 'cmyk' : n === 1 ? 'gray' : 'unknown';
    }
    case 'Indexed':
    case 'Pattern':
      if (space.base && depth < 4) return colourModel(space.base, depth + 1);
      return space.family === 'Pattern' ? 'pattern' : 'unknown';
    case 'Separation':
    case 'DeviceN':
      return 'spot';
    default:
      return 'unknown';
  }
}
