/**
 * The ink a shading puts down at its darkest, estimated from its function
 * (ISO 32000-1 7.10): an exponential function's ends C0 and C1, a stitching
 * function's parts, a sampled function's samples. PostScript calculator
 * functions and mesh shadings without a function are not evaluated (no
 * estimate). Enough for total-area-coverage checks, which want the maximum.
 */
import { PDFArray, PDFStream, type PDFContext, type PDFDict, type PDFObject } from '@cantoo/pdf-lib';
import { asDict, getArray, getNumber, name, numbersOf, resolve, streamBytes } from '../pdf-objects';
import type { ColourSpaceInfo, Inks } from './types';
import { inksOf } from './paint';

const MAX_SAMPLES = 4096;
const MAX_NESTING = 4;
const cache = new WeakMap<PDFDict, Inks | null>();

/** Inks of the shading's darkest colour, or null when it is not in ink terms or cannot be evaluated. */
export function shadingInks(context: PDFContext, shading: PDFDict, space: ColourSpaceInfo): Inks | null {
  if (cache.has(shading)) return cache.get(shading)!;
  let result: Inks | null = null;
  if (inksOf(space, new Array<number>(Math.max(1, space.components)).fill(0)) !== null) {
    const fn = resolve(context, shading.get(name('Function')));
    const outputs = fn instanceof PDFArray ? perComponent(context, fn) : fn !== undefined ? candidates(context, fn, 0) : [];
    let best = -1;
    for (const comps of outputs) {
      const inks = inksOf(space, comps);
      if (!inks) continue;
      const total = inks.c + inks.m + inks.y + inks.k + Object.values(inks.spots).reduce((a, b) => a + b, 0);
      if (total > best) {
        best = total;
        result = inks;
      }
    }
  }
  cache.set(shading, result);
  return result;
}

/** An array of 1-out functions, one per component: the component-wise maximum (an upper bound). */
function perComponent(context: PDFContext, fns: PDFArray): number[][] {
  const out: number[] = [];
  for (let i = 0; i < fns.size(); i++) {
    const values = candidates(context, resolve(context, fns.get(i)), 0);
    if (values.length === 0) return [];
    out.push(Math.max(...values.map((v) => v[0] ?? 0)));
  }
  return [out];
}

/** Output vectors at which a function reaches its extremes. */
function candidates(context: PDFContext, fnObj: PDFObject | undefined, depth: number): number[][] {
  const dict = asDict(fnObj);
  if (!dict || depth > MAX_NESTING) return [];
  switch (getNumber(dict, 'FunctionType')) {
    case 2: {
      const c0 = numbersOf(getArray(dict, 'C0')) ?? [0];
      const c1 = numbersOf(getArray(dict, 'C1')) ?? [1];
      return [c0, c1];
    }
    case 3: {
      const parts = getArray(dict, 'Functions');
      const out: number[][] = [];
      for (let i = 0; parts && i < parts.size(); i++) out.push(...candidates(context, resolve(context, parts.get(i)), depth + 1));
      return out;
    }
    case 0:
      return fnObj instanceof PDFStream ? samples(fnObj) : [];
    default:
      return [];
  }
}

/** A sampled function's table, mapped through Decode (or Range). */
function samples(stream: PDFStream): number[][] {
  const d = stream.dict;
  const bps = getNumber(d, 'BitsPerSample') ?? 8;
  const range = numbersOf(getArray(d, 'Range')) ?? [];
  const decode = numbersOf(getArray(d, 'Decode')) ?? range;
  const n = Math.floor(range.length / 2);
  if (n === 0 || (bps !== 8 && bps !== 16)) return [];
  const data = streamBytes(stream);
  if (!data) return [];
  const bytes = bps / 8;
  const max = bps === 8 ? 255 : 65535;
  const count = Math.floor(data.length / (n * bytes));
  const step = Math.max(1, Math.floor(count / MAX_SAMPLES));
  const out: number[][] = [];
  for (let s = 0; s < count; s += step) {
    const v: number[] = [];
    for (let c = 0; c < n; c++) {
      const at = (s * n + c) * bytes;
      const raw = bytes === 1 ? data[at]! : (data[at]! << 8) | data[at + 1]!;
      const lo = decode[2 * c] ?? 0;
      const hi = decode[2 * c + 1] ?? 1;
      v.push(lo + (raw / max) * (hi - lo));
    }
    out.push(v);
  }
  return out;
}
