/**
 * Graphics state parameter dictionaries (ISO 32000-1 8.4.5, `gs`): the entries
 * preflight reads (line width, font, overprint OP/op/OPM, constant alpha, blend
 * mode, soft mask), read once per dictionary and applied to the state at each
 * `gs`.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getArray, getBool, getName, getNumber, name, nameText, resolve } from '../pdf-objects';
import type { GraphicsState } from './graphics-state';

export interface ExtGState {
  lineWidth?: number;
  /** Font entry [font size]: the font dictionary and the reference it was reached through. */
  font?: { dict: PDFDict; objectNumber: number | null; size: number };
  strokeOverprint?: boolean;
  fillOverprint?: boolean;
  overprintMode?: number;
  strokeAlpha?: number;
  fillAlpha?: number;
  blendMode?: string;
  /** A soft mask dictionary (its /G group is painted as the mask), or `none` to clear one. */
  softMask?: PDFDict | 'none';
}

/** Blend modes a reader knows; an array of them names the first it supports (8.4.5, Table 58). */
const BLEND_MODES = new Set([
  'Normal', 'Compatible', 'Multiply', 'Screen', 'Overlay', 'Darken', 'Lighten', 'ColorDodge', 'ColorBurn',
  'HardLight', 'SoftLight', 'Difference', 'Exclusion', 'Hue', 'Saturation', 'Color', 'Luminosity',
]);

const cache = new WeakMap<PDFDict, ExtGState>();

export function readExtGState(context: PDFContext, dict: PDFDict): ExtGState {
  const hit = cache.get(dict);
  if (hit) return hit;
  const g: ExtGState = {};
  const lw = getNumber(dict, 'LW');
  if (lw !== undefined && lw >= 0) g.lineWidth = lw;
  const op = getBool(dict, 'OP');
  const opFill = getBool(dict, 'op');
  if (op !== undefined) g.strokeOverprint = op;
  // op defaults to OP when only OP is given (Table 58).
  if (opFill !== undefined) g.fillOverprint = opFill;
  else if (op !== undefined) g.fillOverprint = op;
  const opm = getNumber(dict, 'OPM');
  if (opm !== undefined) g.overprintMode = opm === 1 ? 1 : 0;
  const ca = getNumber(dict, 'CA');
  if (ca !== undefined) g.strokeAlpha = clamp01(ca);
  const caFill = getNumber(dict, 'ca');
  if (caFill !== undefined) g.fillAlpha = clamp01(caFill);
  const bm = blendMode(dict.lookup(name('BM')));
  if (bm) g.blendMode = bm;
  const smask = dict.lookup(name('SMask'));
  if (smask instanceof PDFName) g.softMask = 'none';
  else if (smask instanceof PDFDict) g.softMask = getName(smask, 'S') === undefined && !smask.has(name('G')) ? 'none' : smask;
  const font = getArray(dict, 'Font');
  if (font && font.size() >= 2) {
    const raw = font.get(0);
    const f = resolve(context, raw);
    const size = font.lookup(1);
    if (f instanceof PDFDict && size instanceof PDFNumber) g.font = { dict: f, objectNumber: raw instanceof PDFRef ? raw.objectNumber : null, size: size.asNumber() };
  }
  cache.set(dict, g);
  return g;
}

function blendMode(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFName) return obj.decodeText();
  if (obj instanceof PDFArray) {
    for (let i = 0; i < obj.size(); i++) {
      const n = nameText(obj.lookup(i));
      if (n && BLEND_MODES.has(n)) return n;
    }
    return nameText(obj.lookup(0));
  }
  return undefined;
}

const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Applies the parameters; returns the soft mask dictionary to paint when one is set. */
export function applyExtGState(g: GraphicsState, e: ExtGState): PDFDict | null {
  if (e.lineWidth !== undefined) g.lineWidth = e.lineWidth;
  if (e.strokeOverprint !== undefined) g.strokeOverprint = e.strokeOverprint;
  if (e.fillOverprint !== undefined) g.fillOverprint = e.fillOverprint;
  if (e.overprintMode !== undefined) g.overprintMode = e.overprintMode;
  if (e.strokeAlpha !== undefined) g.strokeAlpha = e.strokeAlpha;
  if (e.fillAlpha !== undefined) g.fillAlpha = e.fillAlpha;
  if (e.blendMode !== undefined) g.blendMode = e.blendMode;
  let mask: PDFDict | null = null;
  if (e.softMask === 'none') g.softMask = false;
  else if (e.softMask) {
    g.softMask = true;
    mask = e.softMask;
  }
  g.stateChanged();
  return mask;
}

/** The group form of a soft mask dictionary (/G). */
export function softMaskGroup(mask: PDFDict): PDFStream | undefined {
  const gObj = mask.lookup(name('G'));
  return gObj instanceof PDFStream ? gObj : undefined;
}

