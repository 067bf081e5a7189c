/**
 * Colour spaces (ISO 32000-1 8.6) resolved to what preflight judges: family,
 * component count, a label to group by, ICC component count and header colour
 * space, Separation/DeviceN colorant names, the base or alternate space.
 *
 * A space is named by an operand (`/DeviceRGB cs`, `/CS0 cs`), by an object in
 * a dictionary (an image's or shading's /ColorSpace) or by an inline image's
 * abbreviation (`/CS /RGB`, `[/I /RGB 255 <…>]`). Device spaces are replaced by
 * the Default* space of the resources in effect (8.6.5.6): the result keeps the
 * device family, says `defaulted` and carries the replacement.
 *
 * Results are cached per resources ColorSpace dictionary (Default* depend on
 * it) and per colour space object, so a space written once and used on 500
 * pages is resolved once.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { isName, type Operand } from '../content-lexer';
import { bytesOf, getDict, getNumber, name, nameText, resolve, streamBytes } from '../pdf-objects';
import type { ColourSpaceInfo } from './types';

const device = (family: 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK', components: number): ColourSpaceInfo => ({ family, components, label: family });
export const DEVICE_GRAY = device('DeviceGray', 1);
export const DEVICE_RGB = device('DeviceRGB', 3);
export const DEVICE_CMYK = device('DeviceCMYK', 4);
export const PATTERN: ColourSpaceInfo = { family: 'Pattern', components: 0, label: 'Pattern' };
const unknown = (what: string): ColourSpaceInfo => ({ family: 'Unknown', components: 0, label: `Unknown ${what}`.trim() });

const DEVICE_BY_NAME: Record<string, ColourSpaceInfo> = { DeviceGray: DEVICE_GRAY, DeviceRGB: DEVICE_RGB, DeviceCMYK: DEVICE_CMYK };
/** The abbreviations only inline images may use (ISO 32000-1 Table 93); elsewhere `/RGB` is a resource name. */
const INLINE_ABBREVIATIONS: Record<string, string> = { G: 'DeviceGray', RGB: 'DeviceRGB', CMYK: 'DeviceCMYK', I: 'Indexed' };
const DEFAULT_KEY: Record<string, string> = { DeviceGray: 'DefaultGray', DeviceRGB: 'DefaultRGB', DeviceCMYK: 'DefaultCMYK' };

/** Indexed spaces' lookup tables, kept beside the public info (paints need them). */
export const indexedLookup = new WeakMap<ColourSpaceInfo, { hival: number; table: Uint8Array }>();

const MAX_NESTING = 8;
const ICC_SPACES: Record<string, string> = { 'RGB ': 'RGB', CMYK: 'CMYK', GRAY: 'GRAY', 'Lab ': 'Lab' };
const ICC_LABEL: Record<string, string> = { RGB: 'RGB', CMYK: 'CMYK', GRAY: 'Gray', Lab: 'Lab' };

export class ColourSpaces {
  /** Per resources ColorSpace dictionary (or none): resolved spaces by object or name. */
  private readonly byResources = new Map<PDFDict | undefined, Map<PDFObject | string, ColourSpaceInfo>>();
  private readonly icc = new WeakMap<PDFStream, { n: number; colourSpace: string | null }>();

  constructor(private readonly context: PDFContext) {}

  /** The space a `cs`/`CS` operand names: a device or Pattern name, or a ColorSpace resource. */
  ofOperand(operand: Operand | undefined, resources: PDFDict | undefined): ColourSpaceInfo | undefined {
    if (!isName(operand)) return undefined;
    return this.ofName(operand.name, resources);
  }

  /** An image's, shading's or group's /ColorSpace entry (a name, array or reference). */
  ofObject(obj: PDFObject | undefined, resources: PDFDict | undefined): ColourSpaceInfo {
    const csDict = getDict(resources, 'ColorSpace');
    return this.resolveObject(obj, csDict, 0);
  }

  /** An inline image's /CS: abbreviations, resource names, or an inline Indexed array. */
  ofInline(operand: Operand | undefined, resources: PDFDict | undefined): ColourSpaceInfo {
    if (isName(operand)) return this.ofName(INLINE_ABBREVIATIONS[operand.name] ?? operand.name, resources) ?? unknown(operand.name);
    if (Array.isArray(operand) && isName(operand[0]) && (operand[0].name === 'I' || operand[0].name === 'Indexed')) {
      const base = this.ofInline(operand[1], resources);
      const hival = typeof operand[2] === 'number' ? operand[2] : 0;
      const table = operand[3];
      const info: ColourSpaceInfo = { family: 'Indexed', components: 1, label: `Indexed ${base.label}`, base };
      if (typeof table === 'object' && table !== null && 'bytes' in table) indexedLookup.set(info, { hival, table: table.bytes });
      return info;
    }
    return unknown('inline');
  }

  private ofName(n: string, resources: PDFDict | undefined): ColourSpaceInfo | undefined {
    const csDict = getDict(resources, 'ColorSpace');
    const cache = this.cacheFor(csDict);
    const hit = cache.get(n);
    if (hit) return hit;
    let info: ColourSpaceInfo | undefined;
    if (DEVICE_BY_NAME[n]) info = this.withDefault(DEVICE_BY_NAME[n]!, csDict, 0);
    else if (n === 'Pattern') info = PATTERN;
    else if (n === 'Indexed') info = undefined;
    else {
      const named = csDict?.get(name(n));
      if (named === undefined) return undefined;
      info = this.resolveObject(named, csDict, 0);
    }
    if (info) cache.set(n, info);
    return info;
  }

  private cacheFor(csDict: PDFDict | undefined): Map<PDFObject | string, ColourSpaceInfo> {
    let cache = this.byResources.get(csDict);
    if (!cache) {
      cache = new Map();
      this.byResources.set(csDict, cache);
    }
    return cache;
  }

  private resolveObject(obj: PDFObject | undefined, csDict: PDFDict | undefined, depth: number): ColourSpaceInfo {
    if (obj === undefined) return unknown('(missing)');
    const cache = this.cacheFor(csDict);
    const hit = cache.get(obj);
    if (hit) return hit;
    const info = this.build(resolve(this.context, obj), csDict, depth);
    cache.set(obj, info);
    return info;
  }

  private build(cs: PDFObject | undefined, csDict: PDFDict | undefined, depth: number): ColourSpaceInfo {
    if (depth > MAX_NESTING || cs === undefined) return unknown('(nested too deep)');
    if (cs instanceof PDFName) {
      const n = cs.decodeText();
      const dev = DEVICE_BY_NAME[n];
      if (dev) return this.withDefault(dev, csDict, depth);
      if (n === 'Pattern') return PATTERN;
      if (n === 'CalRGB' || n === 'CalGray' || n === 'Lab') return this.family(n);
      // A resource name where a space belongs (a base or alternate written as /CS0): readers follow it.
      const named = csDict?.get(name(n));
      if (named !== undefined && depth < MAX_NESTING) return this.build(resolve(this.context, named), csDict, depth + 1);
      return unknown(n);
    }
    if (!(cs instanceof PDFArray) || cs.size() === 0) return unknown('(not a colour space)');
    const family = nameText(cs.lookup(0));
    const sub = (i: number) => this.build(resolve(this.context, cs.get(i)), csDict, depth + 1);
    switch (family) {
      case 'DeviceGray':
      case 'DeviceRGB':
      case 'DeviceCMYK':
        return this.withDefault(DEVICE_BY_NAME[family]!, csDict, depth);
      case 'CalRGB':
      case 'CalGray':
      case 'Lab':
        return this.family(family);
      case 'ICCBased':
        return this.iccBased(cs.lookup(1), csDict, depth);
      case 'Indexed': {
        const base = sub(1);
        const info: ColourSpaceInfo = { family: 'Indexed', components: 1, label: `Indexed ${base.label}`, base };
        const hival = cs.lookup(2);
        const lookup = cs.lookup(3);
        const table = lookup instanceof PDFStream ? streamBytes(lookup) : bytesOf(lookup);
        if (table) indexedLookup.set(info, { hival: hival instanceof PDFNumber ? hival.asNumber() : 255, table });
        return info;
      }
      case 'Pattern': {
        if (cs.size() < 2) return PATTERN;
        const base = sub(1);
        return { family: 'Pattern', components: base.components, label: `Pattern ${base.label}`, base };
      }
      case 'Separation': {
        const colorant = nameText(cs.lookup(1)) ?? '?';
        const base = sub(2);
        return { family: 'Separation', components: 1, label: `Separation ${colorant}`, colorants: [colorant], base };
      }
      case 'DeviceN': {
        const names = cs.lookup(1);
        const colorants: string[] = [];
        if (names instanceof PDFArray) for (let i = 0; i < names.size(); i++) colorants.push(nameText(names.lookup(i)) ?? '?');
        const base = sub(2);
        return { family: 'DeviceN', components: colorants.length, label: `DeviceN (${colorants.join(', ')})`, colorants, base };
      }
      default:
        return unknown(family ?? '(no family)');
    }
  }

  private family(family: 'CalRGB' | 'CalGray' | 'Lab'): ColourSpaceInfo {
    return { family, components: family === 'CalGray' ? 1 : 3, label: family };
  }

  private iccBased(stream: PDFObject | undefined, csDict: PDFDict | undefined, depth: number): ColourSpaceInfo {
    if (!(stream instanceof PDFStream)) return unknown('ICCBased');
    let icc = this.icc.get(stream);
    if (!icc) {
      const n = getNumber(stream.dict, 'N') ?? 0;
      icc = { n, colourSpace: iccHeaderSpace(stream) };
      this.icc.set(stream, icc);
    }
    const kind = icc.colourSpace ?? (icc.n === 1 ? 'GRAY' : icc.n === 3 ? 'RGB' : icc.n === 4 ? 'CMYK' : null);
    const label = `ICCBased ${kind ? ICC_LABEL[kind] : `N=${icc.n}`}`;
    const info: ColourSpaceInfo = { family: 'ICCBased', components: icc.n, label, icc };
    const alternate = stream.dict.get(name('Alternate'));
    if (alternate !== undefined && depth < MAX_NESTING) {
      // The alternate is only what a reader without colour management would use; kept for completeness.
      const alt = this.build(resolve(this.context, alternate), csDict, depth + 1);
      if (alt.family !== 'Unknown') info.base = alt;
    }
    return info;
  }

  /** A device space, or the Default* space of the resources standing in for it. */
  private withDefault(dev: ColourSpaceInfo, csDict: PDFDict | undefined, depth: number): ColourSpaceInfo {
    const key = DEFAULT_KEY[dev.family]!;
    const replacement = csDict?.get(name(key));
    if (replacement === undefined || depth >= MAX_NESTING) return dev;
    const info = this.build(resolve(this.context, replacement), undefined, depth + 1);
    // A Default* space must have the device space's component count; a broken one is ignored as readers do.
    if (info.family === 'Unknown' || info.components !== dev.components) return dev;
    return { ...dev, label: `${dev.family} (${key} ${info.label})`, defaulted: true, defaultSpace: info };
  }
}

/** The data colour space of an ICC profile header (bytes 16–19), when the stream decodes. */
function iccHeaderSpace(stream: PDFStream): string | null {
  const bytes = streamBytes(stream);
  if (!bytes || bytes.length < 20) return null;
  const sig = String.fromCharCode(bytes[16]!, bytes[17]!, bytes[18]!, bytes[19]!);
  return ICC_SPACES[sig] ?? null;
}
