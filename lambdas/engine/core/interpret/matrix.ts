/**
 * Affine matrices in PDF's row-vector convention (ISO 32000-1 8.3.4): a point
 * [x y 1] × [a b 0; c d 0; e f 1]. The interpreter composes them for the CTM,
 * text, forms, patterns, glyphs and annotation appearances, and measures with
 * them: bounding boxes on the page, the scale a line width or a font size gets.
 */
import type { Rect } from '../page-boxes';
import type { Matrix } from './types';

export const IDENTITY: Readonly<Matrix> = [1, 0, 0, 1, 0, 0];

/** m1 then m2: p × m1 × m2. */
export function multiply(m1: Readonly<Matrix>, m2: Readonly<Matrix>): Matrix {
  return [
    m1[0] * m2[0] + m1[1] * m2[2],
    m1[0] * m2[1] + m1[1] * m2[3],
    m1[2] * m2[0] + m1[3] * m2[2],
    m1[2] * m2[1] + m1[3] * m2[3],
    m1[4] * m2[0] + m1[5] * m2[2] + m2[4],
    m1[4] * m2[1] + m1[5] * m2[3] + m2[5],
  ];
}

/** m1 then m2, written into `out` (which may not be m1 or m2): for hot paths that only measure with the product. */
export function multiplyInto(m1: Readonly<Matrix>, m2: Readonly<Matrix>, out: Matrix): Matrix {
  out[0] = m1[0] * m2[0] + m1[1] * m2[2];
  out[1] = m1[0] * m2[1] + m1[1] * m2[3];
  out[2] = m1[2] * m2[0] + m1[3] * m2[2];
  out[3] = m1[2] * m2[1] + m1[3] * m2[3];
  out[4] = m1[4] * m2[0] + m1[5] * m2[2] + m2[4];
  out[5] = m1[4] * m2[1] + m1[5] * m2[3] + m2[5];
  return out;
}

/** Six finite numbers, or undefined. */
export function matrixFrom(values: readonly unknown[] | undefined): Matrix | undefined {
  if (!values || values.length < 6) return undefined;
  for (let i = 0; i < 6; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  }
  return [values[0], values[1], values[2], values[3], values[4], values[5]] as Matrix;
}

/** The upright box around a rectangle [x0 y0 x1 y1] mapped through m. */
export function transformBox(m: Readonly<Matrix>, x0: number, y0: number, x1: number, y1: number): Rect {
  // Indexed, not destructured: destructuring went through the array iterator,
  // an iterator and a result object per element on every text run.
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const e = m[4];
  const f = m[5];
  const ax0 = a * x0;
  const ax1 = a * x1;
  const cy0 = c * y0;
  const cy1 = c * y1;
  const bx0 = b * x0;
  const bx1 = b * x1;
  const dy0 = d * y0;
  const dy1 = d * y1;
  return [
    Math.min(ax0, ax1) + Math.min(cy0, cy1) + e,
    Math.min(bx0, bx1) + Math.min(dy0, dy1) + f,
    Math.max(ax0, ax1) + Math.max(cy0, cy1) + e,
    Math.max(bx0, bx1) + Math.max(dy0, dy1) + f,
  ];
}

/**
 * The smaller singular value: how much the thinnest direction of a shape is
 * scaled. A line width transformed by an uneven scale is thinnest there.
 */
export function minScale(m: Readonly<Matrix>): number {
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const p = a * a + b * b + c * c + d * d;
  const det = a * d - b * c;
  const disc = Math.sqrt(Math.max(0, p * p - 4 * det * det));
  return Math.sqrt(Math.max(0, (p - disc) / 2));
}

/** Length of the image of the unit y vector: the scale a font's height gets. */
export function verticalScale(m: Readonly<Matrix>): number {
  // Not Math.hypot: V8's builtin allocated on every call (a heap profile of
  // preflight showed it), and this runs for every text run; page-space scales
  // are far from where hypot's care about overflow matters.
  return Math.sqrt(m[2] * m[2] + m[3] * m[3]);
}

/** A matrix that maps box `from` onto box `to` by scaling and translating (annotation appearances, 12.5.5). */
export function boxToBox(from: Rect, to: Rect): Matrix {
  const sw = from[2] - from[0];
  const sh = from[3] - from[1];
  const sx = sw === 0 ? 1 : (to[2] - to[0]) / sw;
  const sy = sh === 0 ? 1 : (to[3] - to[1]) / sh;
  return [sx, 0, 0, sy, to[0] - from[0] * sx, to[1] - from[1] * sy];
}

export function union(a: Rect, b: Rect): Rect {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** Grows `into` in place to cover `r`. */
export function extend(into: Rect, r: Readonly<Rect>): void {
  if (r[0] < into[0]) into[0] = r[0];
  if (r[1] < into[1]) into[1] = r[1];
  if (r[2] > into[2]) into[2] = r[2];
  if (r[3] > into[3]) into[3] = r[3];
}

export function intersectBoxes(a: Rect, b: Rect): Rect {
  const r: Rect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  // An empty intersection keeps a zero-size box where the two meet, not an inverted one.
  if (r[2] < r[0]) r[2] = r[0];
  if (r[3] < r[1]) r[3] = r[1];
  return r;
}
