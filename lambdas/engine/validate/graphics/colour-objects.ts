/**
 * The PDF objects behind a colour space: the ICC profile streams, Separation
 * arrays and DeviceN arrays a colour space (name, array or reference) reaches
 * through Default* replacement, Indexed bases, Pattern underlying spaces,
 * Separation/DeviceN alternates and a DeviceN Colorants dictionary.
 *
 * The interpreter's ColourSpaceInfo says what a space is, but the PDF/A rules
 * on ICC profiles and on Separation consistency judge the objects themselves
 * (ISO 19005-2 6.2.4.4 compares the PDF objects, not their effect), so they
 * are walked here from the object the content names.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, name, nameText, resolve } from '../../core/pdf-objects';

export interface ColourObjectVisitor {
  /** `alternate`: reached as (part of) a Separation or DeviceN alternate space. */
  icc(stream: PDFStream, alternate: boolean): void;
  separation(array: PDFArray): void;
  deviceN(array: PDFArray): void;
}

const DEFAULT_KEY: Record<string, string> = { DeviceGray: 'DefaultGray', DeviceRGB: 'DefaultRGB', DeviceCMYK: 'DefaultCMYK' };
const INLINE_ABBREVIATIONS: Record<string, string> = { G: 'DeviceGray', RGB: 'DeviceRGB', CMYK: 'DeviceCMYK', I: 'Indexed' };
const MAX_DEPTH = 8;

/**
 * Visits the objects of a colour space. `resources` is the resource dictionary
 * in effect: names are looked up in its ColorSpace entry and device spaces are
 * followed to its Default* spaces. Never throws: a malformed space has nothing to visit.
 */
export function walkColourSpace(ctx: PDFContext, obj: PDFObject | undefined, resources: PDFDict | undefined, visit: ColourObjectVisitor, inline = false): void {
  try {
    walk(ctx, obj, getDict(resources, 'ColorSpace'), visit, 0, inline, false);
  } catch {
    // A structure pdf-lib cannot read: nothing the rules can judge.
  }
}

function walk(ctx: PDFContext, raw: PDFObject | undefined, csDict: PDFDict | undefined, visit: ColourObjectVisitor, depth: number, inline: boolean, alt: boolean): void {
  if (depth > MAX_DEPTH) return;
  const obj = resolve(ctx, raw);
  if (obj instanceof PDFName) {
    let n = obj.decodeText();
    if (inline) n = INLINE_ABBREVIATIONS[n] ?? n;
    const key = DEFAULT_KEY[n];
    if (key) {
      const replacement = csDict?.get(name(key));
      if (replacement !== undefined) walk(ctx, replacement, undefined, visit, depth + 1, false, alt);
      return;
    }
    if (n === 'Pattern' || n === 'CalRGB' || n === 'CalGray' || n === 'Lab') return;
    const named = csDict?.get(name(n));
    if (named !== undefined) walk(ctx, named, csDict, visit, depth + 1, false, alt);
    return;
  }
  if (!(obj instanceof PDFArray) || obj.size() === 0) return;
  const family = nameText(obj.lookup(0));
  switch (family) {
    case 'ICCBased': {
      const s = obj.lookup(1);
      if (s instanceof PDFStream) visit.icc(s, alt);
      return;
    }
    case 'I':
    case 'Indexed':
    case 'Pattern':
      if (obj.size() > 1) walk(ctx, obj.get(1), csDict, visit, depth + 1, inline, alt);
      return;
    case 'Separation':
      visit.separation(obj);
      walk(ctx, obj.get(2), csDict, visit, depth + 1, false, true);
      return;
    case 'DeviceN': {
      visit.deviceN(obj);
      walk(ctx, obj.get(2), csDict, visit, depth + 1, false, true);
      const colorants = getDict(asDictOrUndefined(resolve(ctx, obj.get(4))), 'Colorants');
      if (colorants) for (const [, v] of colorants.entries()) walk(ctx, v, csDict, visit, depth + 1, false, alt);
      return;
    }
    default:
      if (family && DEFAULT_KEY[family]) walk(ctx, obj.get(0), csDict, visit, depth + 1, false, alt);
  }
}

function asDictOrUndefined(obj: PDFObject | undefined): PDFDict | undefined {
  return obj instanceof PDFDict ? obj : undefined;
}

/**
 * PDF object equivalence as ISO 19005-2 6.2.4.4 asks for it: references are
 * followed (direct or indirect does not matter), streams compare by their
 * dictionaries without the encoding keys and by their decoded data
 * (compression does not matter).
 */
export function sameObject(ctx: PDFContext, a: PDFObject | undefined, b: PDFObject | undefined, decoded: (s: PDFStream) => Uint8Array | null, depth = 0): boolean {
  const x = resolve(ctx, a);
  const y = resolve(ctx, b);
  if (x === y) return true;
  if (x === undefined || y === undefined || depth > 16) return false;
  if (x instanceof PDFStream || y instanceof PDFStream) {
    if (!(x instanceof PDFStream && y instanceof PDFStream)) return false;
    if (!sameDict(ctx, x.dict, y.dict, decoded, depth, STREAM_ENCODING_KEYS)) return false;
    const dx = decoded(x);
    const dy = decoded(y);
    if (!dx || !dy || dx.length !== dy.length) return false;
    for (let i = 0; i < dx.length; i++) if (dx[i] !== dy[i]) return false;
    return true;
  }
  if (x instanceof PDFArray || y instanceof PDFArray) {
    if (!(x instanceof PDFArray && y instanceof PDFArray) || x.size() !== y.size()) return false;
    for (let i = 0; i < x.size(); i++) if (!sameObject(ctx, x.get(i), y.get(i), decoded, depth + 1)) return false;
    return true;
  }
  if (x instanceof PDFDict || y instanceof PDFDict) {
    if (!(x instanceof PDFDict && y instanceof PDFDict)) return false;
    return sameDict(ctx, x, y, decoded, depth, NO_KEYS);
  }
  return x.constructor === y.constructor && x.toString() === y.toString();
}

const STREAM_ENCODING_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL']);
const NO_KEYS = new Set<string>();

function sameDict(ctx: PDFContext, x: PDFDict, y: PDFDict, decoded: (s: PDFStream) => Uint8Array | null, depth: number, skip: Set<string>): boolean {
  const keysOf = (d: PDFDict) => d.keys().map((k) => k.decodeText()).filter((k) => !skip.has(k));
  const kx = keysOf(x);
  const ky = new Set(keysOf(y));
  if (kx.length !== ky.size) return false;
  for (const k of kx) {
    if (!ky.has(k)) return false;
    if (!sameObject(ctx, x.get(name(k)), y.get(name(k)), decoded, depth + 1)) return false;
  }
  return true;
}
