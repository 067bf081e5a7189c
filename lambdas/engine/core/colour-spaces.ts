/**
 * Which device colour spaces (DeviceGray, DeviceRGB, DeviceCMYK) a colour space
 * ends up using, and whether a Default* space of the resources replaced each
 * (ISO 32000-1 8.6.5.6). Indexed, Pattern, Separation and DeviceN spaces are
 * followed to their base, underlying or alternate space; ICCBased, CalRGB,
 * CalGray and Lab are device independent. Used by PDF/A's uncalibrated-colour
 * rules (through content-scan) and by preflight's colour facts.
 *
 * Colour spaces themselves are resolved by the content interpreter
 * (interpret/colour-space-info.ts); this reads its ColourSpaceInfo.
 */
import type { ColourSpaceInfo } from './interpret/types';

export type DeviceSpace = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';

export interface DeviceSpaceUse {
  space: DeviceSpace;
  /** A Default* colour space of the resources stands in for it. */
  defaulted: boolean;
}

const MAX_NESTING = 8;

/** Device spaces a resolved colour space uses, through bases and alternates. */
export function deviceSpacesOf(info: ColourSpaceInfo | null | undefined): DeviceSpaceUse[] {
  const out: DeviceSpaceUse[] = [];
  for (let s = info ?? undefined, depth = 0; s && depth < MAX_NESTING; depth++) {
    switch (s.family) {
      case 'DeviceGray':
      case 'DeviceRGB':
      case 'DeviceCMYK':
        out.push({ space: s.family, defaulted: s.defaulted === true });
        return out;
      case 'Indexed':
      case 'Pattern':
      case 'Separation':
      case 'DeviceN':
        s = s.base;
        break;
      default:
        return out;
    }
  }
  return out;
}
