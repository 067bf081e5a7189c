/**
 * Drawing pieces for the appearances pdfa.prepare gives annotations that have
 * none (annotation-appearances.ts): colours from an annotation's colour
 * arrays, its border width and dash, and the shapes ISO 32000-1 12.5.6
 * describes for the markup annotations (rectangle, ellipse, line, polygon,
 * ink strokes, text markup over QuadPoints). The result is content-stream
 * text in default user space, drawn by the caller into a form whose BBox is
 * the annotation's Rect; `Built` is that form as annotation-appearances.ts and
 * widget-appearances.ts both return it.
 *
 * Colour: an annotation colour array has 0 (transparent), 1 (gray), 3 (RGB)
 * or 4 (CMYK) components. PDF/A lets device colour be used only where the
 * PDF/A output intent calibrates it (gray with any intent, RGB with an RGB
 * intent, CMYK with a CMYK one), so a colour of the other family is converted
 * with the plain complement formulas — the annotation never had a calibrated
 * colour, and this keeps its hue instead of adding a colour failure.
 */
import { PDFArray, PDFDict, PDFNumber, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getArray, getDict, getName, getNumber, name, numbersOf } from '../../core/pdf-objects';
import { shortNumber } from '../../core/content-writer';

/** The colour space of the PDF/A output intent's profile ('RGB ', 'CMYK', 'GRAY'), or null without one. */
export type IntentSpace = string | null;

/** What a built appearance is: one form, or (buttons) one form per state. */
export interface Built {
  content: string;
  /** The form's BBox; Rect for shapes drawn in page space, [0 0 w h] for widgets. */
  bbox: [number, number, number, number];
  /** Resources entries (ExtGState, Font). */
  resources?: Record<string, Record<string, PDFObject>>;
  /** Why (part of) it is not drawn. */
  why?: string;
}

export const n = (v: number): string => shortNumber(v);

/**
 * An annotation colour array: null when absent or malformed, [] for "no
 * colour" (transparent), else its components clamped to 0..1.
 */
export function colourArray(dict: PDFDict, key: string): number[] | null {
  const arr = getArray(dict, key);
  if (!arr) return null;
  const values = numbersOf(arr) ?? [];
  if (![0, 1, 3, 4].includes(values.length) || values.some((v) => !Number.isFinite(v))) return null;
  return values.map((v) => Math.min(1, Math.max(0, v)));
}

/** Colour components in a device family the output intent calibrates (see the header). */
function forIntent(c: number[], intent: IntentSpace): number[] {
  if (c.length === 3 && intent === 'CMYK') {
    const k = 1 - Math.max(...c);
    return k >= 1 ? [0, 0, 0, 1] : [...c.map((x) => (1 - x - k) / (1 - k)), k];
  }
  if (c.length === 4 && (intent === 'RGB ' || intent === 'GRAY')) {
    const rgb = c.slice(0, 3).map((x) => (1 - x) * (1 - c[3]!));
    return intent === 'GRAY' ? [0.3 * rgb[0]! + 0.59 * rgb[1]! + 0.11 * rgb[2]!] : rgb;
  }
  if (c.length === 3 && intent === 'GRAY') return [0.3 * c[0]! + 0.59 * c[1]! + 0.11 * c[2]!];
  return c;
}

/** The operator setting a stroke or fill colour (`0 G`, `1 0 0 rg`, `0 0 0 1 k`), or null for no colour. */
export function colourOp(c: number[] | null, stroke: boolean, intent: IntentSpace): string | null {
  if (!c || c.length === 0) return null;
  const v = forIntent(c, intent);
  const op = v.length === 1 ? 'g' : v.length === 3 ? 'rg' : 'k';
  return `${v.map(n).join(' ')} ${stroke ? op.toUpperCase() : op}`;
}

export interface Border {
  width: number;
  /** A dash array, or null for a solid line. */
  dash: number[] | null;
}

/**
 * The border an annotation draws with: BS (width W, style S, dash D) when
 * present, else the Border array [h v width dash?]; 1 point solid by default
 * (ISO 32000-1 Tables 164 and 166).
 */
export function borderOf(ctx: PDFContext, annot: PDFDict): Border {
  const bs = getDict(annot, 'BS');
  if (bs) {
    const w = getNumber(bs, 'W');
    const dashed = getName(bs, 'S') === 'D';
    const d = numbersOf(getArray(bs, 'D'));
    return { width: w !== undefined && w >= 0 ? w : 1, dash: dashed ? (d && d.length && d.every((x) => x >= 0) && d.some((x) => x > 0) ? d : [3]) : null };
  }
  const arr = ctx.lookup(annot.get(name('Border')));
  if (arr instanceof PDFArray && arr.size() >= 3) {
    const w = arr.lookup(2);
    const d = arr.size() >= 4 ? numbersOf(arr.lookup(3) instanceof PDFArray ? (arr.lookup(3) as PDFArray) : undefined) : undefined;
    return { width: w instanceof PDFNumber && w.asNumber() >= 0 ? w.asNumber() : 1, dash: d && d.length && d.every((x) => x >= 0) && d.some((x) => x > 0) ? d : null };
  }
  return { width: 1, dash: null };
}

/** Line width and dash operators for a border. */
export function strokeStyle(b: Border): string {
  return `${n(b.width)} w ${b.dash ? `[${b.dash.map(n).join(' ')}] 0 d` : '[] 0 d'}`;
}

/** A rectangle inset by half the line width, so the stroke stays inside it. */
export function insetRect(r: [number, number, number, number], width: number): string {
  const [x0, y0, x1, y1] = r;
  const h = width / 2;
  return `${n(x0 + h)} ${n(y0 + h)} ${n(Math.max(0, x1 - x0 - width))} ${n(Math.max(0, y1 - y0 - width))} re`;
}

/** An ellipse inscribed in a rectangle inset by half the line width (four Bézier arcs). */
export function ellipse(r: [number, number, number, number], width: number): string {
  const k = 0.5523; // 4/3·tan(π/8): a quarter circle as one cubic Bézier
  const x0 = r[0] + width / 2;
  const y0 = r[1] + width / 2;
  const x1 = r[2] - width / 2;
  const y1 = r[3] - width / 2;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const rx = (x1 - x0) / 2;
  const ry = (y1 - y0) / 2;
  return [
    `${n(cx)} ${n(y1)} m`,
    `${n(cx + rx * k)} ${n(y1)} ${n(x1)} ${n(cy + ry * k)} ${n(x1)} ${n(cy)} c`,
    `${n(x1)} ${n(cy - ry * k)} ${n(cx + rx * k)} ${n(y0)} ${n(cx)} ${n(y0)} c`,
    `${n(cx - rx * k)} ${n(y0)} ${n(x0)} ${n(cy - ry * k)} ${n(x0)} ${n(cy)} c`,
    `${n(x0)} ${n(cy + ry * k)} ${n(cx - rx * k)} ${n(y1)} ${n(cx)} ${n(y1)} c`,
    'h',
  ].join('\n');
}

/** A path through points [x0 y0 x1 y1 …] (closed for a polygon). */
export function polyline(points: number[], close: boolean): string | null {
  if (points.length < 4 || points.length % 2 !== 0 || points.some((v) => !Number.isFinite(v))) return null;
  const out: string[] = [];
  for (let i = 0; i < points.length; i += 2) out.push(`${n(points[i]!)} ${n(points[i + 1]!)} ${i === 0 ? 'm' : 'l'}`);
  if (close) out.push('h');
  return out.join('\n');
}

/** A text markup quadrilateral: its corners as Acrobat and pdf.js read QuadPoints (upper left, upper right, lower left, lower right). */
export interface Quad {
  ul: [number, number];
  ur: [number, number];
  ll: [number, number];
  lr: [number, number];
}

export function quadsOf(annot: PDFDict): Quad[] {
  const q = numbersOf(getArray(annot, 'QuadPoints'));
  if (!q || q.length < 8 || q.some((v) => !Number.isFinite(v))) return [];
  const out: Quad[] = [];
  for (let i = 0; i + 8 <= q.length; i += 8) out.push({ ul: [q[i]!, q[i + 1]!], ur: [q[i + 2]!, q[i + 3]!], ll: [q[i + 4]!, q[i + 5]!], lr: [q[i + 6]!, q[i + 7]!] });
  return out;
}

const pt = (p: [number, number]) => `${n(p[0])} ${n(p[1])}`;
const lerp = (a: [number, number], b: [number, number], t: number): [number, number] => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const dist = (a: [number, number], b: [number, number]) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/** Highlight: the quadrilateral filled. */
export const highlightPath = (q: Quad): string => `${pt(q.ll)} m ${pt(q.lr)} l ${pt(q.ur)} l ${pt(q.ul)} l h`;

/** Underline: a line along the bottom edge, raised by a fraction of the text height. */
export function underlinePath(q: Quad): string {
  const t = 0.07;
  return `${pt(lerp(q.ll, q.ul, t))} m ${pt(lerp(q.lr, q.ur, t))} l`;
}

/** StrikeOut: a line through the middle of the quadrilateral. */
export const strikeOutPath = (q: Quad): string => `${pt(lerp(q.ll, q.ul, 0.5))} m ${pt(lerp(q.lr, q.ur, 0.5))} l`;

/** Squiggly: a zigzag along the bottom edge, its amplitude a sixth of the text height. */
export function squigglyPath(q: Quad): string {
  const height = dist(q.ll, q.ul);
  const length = dist(q.ll, q.lr);
  if (length === 0 || height === 0) return '';
  const up: [number, number] = [(q.ul[0] - q.ll[0]) / height, (q.ul[1] - q.ll[1]) / height];
  const amp = height / 6;
  const steps = Math.max(2, Math.min(2000, Math.round(length / 2)));
  const out: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const base = lerp(q.ll, q.lr, i / steps);
    const lift = i % 2 === 0 ? 0 : amp;
    out.push(`${n(base[0] + up[0] * lift)} ${n(base[1] + up[1] * lift)} ${i === 0 ? 'm' : 'l'}`);
  }
  return out.join(' ');
}
