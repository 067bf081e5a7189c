/**
 * Stroke adjustment: thin axis-aligned lines and filled rectangles land on
 * whole pixels.
 *
 * Drawn exactly, a 0.5 pt table rule at 72 dpi whose centre falls on a pixel
 * boundary comes out as two half-grey rows instead of one dark one, and the
 * edges of chart bars and table cells blur into their neighbours. PDF knows
 * this (ISO 32000-2 10.7.5, "automatic stroke adjustment"), and print
 * rasterisers and viewers (poppler, Acrobat) adjust: the two long edges of a
 * horizontal or vertical stroke, and the edges of a filled rectangle, are
 * moved to the nearest pixel boundary, and what would round to nothing keeps
 * one pixel. pdfjs does not, so we do it here, in device space, before pdfjs
 * builds the path:
 *
 * - a fill of a single rectangle (one subpath of four corners): each edge
 *   rounded to the nearest pixel boundary, at least one pixel wide and high;
 * - a stroke made only of horizontal and vertical segments, under a uniform
 *   scale: both long edges of each segment rounded to pixel boundaries (at
 *   least one pixel apart), the segment centred between them.
 *
 * Curves, diagonals, several rectangles in one fill, and skewed or
 * non-uniformly scaled transforms are drawn as pdfjs draws them. The path data
 * of the operator list is never changed (a form drawn twice under different
 * transforms is adjusted for each); pdfjs gets an adjusted copy.
 */
import type { Matrix } from './glyph-snapping';

/** pdfjs' path opcodes (DrawOPS in pdfjs' display layer; not exported). */
export const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

type Point = [number, number];
interface Subpath {
  points: Point[];
  closed: boolean;
}

/** Subpaths of moveTo/lineTo/closePath only; null when the path has curves or is malformed. */
function polylines(ops: ArrayLike<number>): Subpath[] | null {
  const out: Subpath[] = [];
  let current: Subpath | null = null;
  for (let i = 0; i < ops.length; ) {
    const op = ops[i++];
    if (op === DRAW.moveTo || op === DRAW.lineTo) {
      if (i + 2 > ops.length) return null;
      const p: Point = [ops[i++]!, ops[i++]!];
      if (op === DRAW.moveTo || !current) {
        current = { points: [p], closed: false };
        out.push(current);
      } else current.points.push(p);
    } else if (op === DRAW.closePath) {
      if (current) current.closed = true;
    } else return null;
  }
  return out;
}

function encode(subpaths: Subpath[]): number[] {
  const ops: number[] = [];
  for (const s of subpaths) {
    s.points.forEach(([x, y], i) => ops.push(i === 0 ? DRAW.moveTo : DRAW.lineTo, x, y));
    if (s.closed) ops.push(DRAW.closePath);
  }
  return ops;
}

const EPS = 1e-6;
const apply = (m: Matrix, [x, y]: Point): Point => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];

function invert(m: Matrix): Matrix | null {
  const det = m.a * m.d - m.b * m.c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  return { a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det, e: (m.c * m.f - m.d * m.e) / det, f: (m.b * m.e - m.a * m.f) / det };
}

/** Axis-aligned: no skew, possibly a quarter turn. */
const axisAligned = (m: Matrix) => (Math.abs(m.b) < EPS && Math.abs(m.c) < EPS) || (Math.abs(m.a) < EPS && Math.abs(m.d) < EPS);

/** The filled rectangle's path, its edges on pixel boundaries; null when the fill is not one rectangle. */
export function adjustRectangleFill(ops: ArrayLike<number>, m: Matrix): number[] | null {
  // At most five points and a close (3 × 5 + 1 numbers): every longer fill, most of a page's, is passed at once.
  if (ops.length > 16 || !axisAligned(m)) return null;
  const inverse = invert(m);
  const paths = polylines(ops);
  if (!inverse || !paths || paths.length !== 1) return null;
  let pts = paths[0]!.points.map((p) => apply(m, p));
  if (pts.length === 5 && Math.abs(pts[4]![0] - pts[0]![0]) < EPS && Math.abs(pts[4]![1] - pts[0]![1]) < EPS) pts = pts.slice(0, 4);
  if (pts.length !== 4) return null;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[(i + 1) % 4]!;
    if (Math.abs(x0 - x1) > EPS && Math.abs(y0 - y1) > EPS) return null;
  }
  const [minX, maxX] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
  const [minY, maxY] = [Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
  const [left, right] = roundedSpan(minX, maxX);
  const [top, bottom] = roundedSpan(minY, maxY);
  // Each corner goes to the rounded edge it lies on.
  const snapX = (x: number) => (x - minX < maxX - x ? left : right);
  const snapY = (y: number) => (y - minY < maxY - y ? top : bottom);
  const adjusted = pts.map(([x, y]) => apply(inverse, [snapX(x), snapY(y)]));
  return encode([{ points: adjusted, closed: true }]);
}

/** Both ends rounded to whole pixels, at least one pixel apart. */
function roundedSpan(lo: number, hi: number): [number, number] {
  const a = Math.round(lo);
  const b = Math.max(Math.round(hi), a + 1);
  return [a, b];
}

export interface AdjustedStroke {
  ops: number[];
  /** The new line width in user space. */
  lineWidth: number;
}

/**
 * The stroke's path with every horizontal and vertical segment centred so its
 * edges fall on pixel boundaries, and the width in whole pixels; null when the
 * stroke cannot be adjusted (curves, diagonals, skew, non-uniform scale).
 * `lineWidth` 0 is the thinnest line: one pixel.
 */
export function adjustStroke(ops: ArrayLike<number>, m: Matrix, lineWidth: number): AdjustedStroke | null {
  if (!axisAligned(m)) return null;
  const sx = Math.hypot(m.a, m.b);
  const sy = Math.hypot(m.c, m.d);
  if (Math.abs(sx - sy) > EPS * Math.max(1, sx)) return null;
  const inverse = invert(m);
  const paths = polylines(ops);
  if (!inverse || !paths || paths.length === 0) return null;
  // The exact width places the edges; rounding may leave none, and then the
  // line keeps one pixel below its first edge: a 0.68 px underline centred at
  // row 368.99 is row 369, not 368 (bug1885505.pdf). A 1.08 px rule centred on
  // a pixel boundary spans two pixels (Test-plusminus.pdf's title block), one
  // centred in a pixel spans one. One width serves the whole path: the commonest.
  const device = Math.max(0, lineWidth * sx);
  const edges = (v: number) => {
    const lo = Math.round(v - device / 2);
    return [lo, Math.max(Math.round(v + device / 2), lo + 1)] as const;
  };
  const out: Subpath[] = [];
  const across: { x: boolean; y: boolean }[][] = [];
  const devicePaths = paths.map((s) => s.points.map((p) => apply(m, p)));
  const widths = new Map<number, number>();
  for (const [k, s] of paths.entries()) {
    const pts = devicePaths[k]!;
    const flags = pts.map(() => ({ x: false, y: false }));
    across.push(flags);
    const n = pts.length;
    const segments = s.closed ? n : n - 1;
    for (let i = 0; i < segments; i++) {
      const j = (i + 1) % n;
      const [x0, y0] = pts[i]!;
      const [x1, y1] = pts[j]!;
      const vertical = Math.abs(x0 - x1) < EPS;
      const horizontal = Math.abs(y0 - y1) < EPS;
      if (vertical && horizontal) continue; // a zero-length segment
      if (!vertical && !horizontal) return null;
      if (vertical) flags[i]!.x = flags[j]!.x = true;
      else flags[i]!.y = flags[j]!.y = true;
      const [lo, hi] = edges(vertical ? x0 : y0);
      widths.set(hi - lo, (widths.get(hi - lo) ?? 0) + 1);
    }
  }
  if (widths.size === 0) return null;
  const width = [...widths.entries()].sort((p, q) => q[1] - p[1] || q[0] - p[0])[0]![0];
  const centre = (v: number) => edges(v)[0] + width / 2;
  for (const [k, s] of paths.entries()) {
    const flags = across[k]!;
    const adjusted = devicePaths[k]!.map(([x, y], i) => apply(inverse, [flags[i]!.x ? centre(x) : x, flags[i]!.y ? centre(y) : y]));
    out.push({ points: adjusted, closed: s.closed });
  }
  return { ops: encode(out), lineWidth: width / sx };
}
