/**
 * Room for the annotations PDFium draws from their geometry.
 *
 * A Line, PolyLine, Polygon or Ink annotation without an appearance stream is
 * drawn by every viewer from its own coordinates (L, Vertices, InkList),
 * wherever its Rect is. PDFium draws it too (it builds the appearance
 * itself), but uses Rect as the appearance's bounding box: a Rect that is
 * empty, or that does not hold the shape, clips the drawing away. Files do
 * have such Rects (annotation-line-without-appearance-empty-Rect.pdf: a red
 * line across the page that poppler, MuPDF, Ghostscript and pdf.js draw and
 * PDFium left out). poppler and MuPDF work out the annotation's box from its
 * geometry when they build the appearance; here the Rect is widened in
 * memory (the file is never written) to hold the shape with a margin for
 * the line width and line endings, so PDFium draws what the others draw.
 *
 * Only annotations without an appearance stream are touched: an appearance
 * the file gives is drawn in its Rect, as the file says. PDFium's own
 * appearances for these subtypes are drawn in page coordinates from the
 * geometry, so a larger Rect changes nothing but the clip.
 */
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';

/** Annotation subtypes (fpdf_annot.h) whose appearance PDFium builds from their coordinates. */
const LINE = 4;
const POLYGON = 7;
const POLYLINE = 8;
const INK = 15;
/** FPDF_ANNOT_APPEARANCEMODE_NORMAL. */
const NORMAL = 0;
/** FPDFAnnot_GetAP's length, in bytes with the UTF-16 terminator, for an absent appearance. */
const NO_APPEARANCE = 2;
/**
 * Points of room around the shape: half the widest border and the line
 * endings (arrows, circles) drawn at its ends, which grow with the border
 * width. The border width itself (/BS /W) cannot be read through PDFium's
 * API, so the margin is generous; the Rect only clips, so room to spare costs
 * nothing.
 */
const MARGIN = 50;
/** Coordinates read at most, per annotation: a huge ink drawing is not worth reading twice. */
const MAX_POINTS = 100_000;

type Box = [number, number, number, number];

/** Widens the Rect of the page's geometry-drawn annotations without an appearance that would clip their shape. */
export function makeRoomForDrawnAnnotations(m: WrappedPdfiumModule, page: number): void {
  const count = m.FPDFPage_GetAnnotCount(page);
  if (count <= 0) return;
  const P = m.pdfium;
  // FS_RECTF (four floats), reused for every annotation.
  const rect = P.wasmExports.malloc(16);
  try {
    for (let i = 0; i < count; i++) {
      const annot = m.FPDFPage_GetAnnot(page, i);
      if (!annot) continue;
      try {
        widen(m, annot, rect);
      } finally {
        m.FPDFPage_CloseAnnot(annot);
      }
    }
  } finally {
    P.wasmExports.free(rect);
  }
}

function widen(m: WrappedPdfiumModule, annot: number, rect: number): void {
  const subtype = m.FPDFAnnot_GetSubtype(annot);
  if (subtype !== LINE && subtype !== POLYGON && subtype !== POLYLINE && subtype !== INK) return;
  if (m.FPDFAnnot_GetAP(annot, NORMAL, 0, 0) > NO_APPEARANCE) return;
  const shape = shapeBounds(m, annot, subtype);
  if (!shape) return;
  const P = m.pdfium;
  const f = (k: number) => P.getValue(rect + 4 * k, 'float');
  // FS_RECTF is left, top, right, bottom; a file's Rect may come in any corner order.
  const has = m.FPDFAnnot_GetRect(annot, rect);
  const current: Box | null = has ? [Math.min(f(0), f(2)), Math.min(f(1), f(3)), Math.max(f(0), f(2)), Math.max(f(1), f(3))] : null;
  if (current && current.every(Number.isFinite) && contains(current, shape)) return;
  const room: Box = [shape[0] - MARGIN, shape[1] - MARGIN, shape[2] + MARGIN, shape[3] + MARGIN];
  const wanted = current && current.every(Number.isFinite) ? union(current, room) : room;
  P.setValue(rect, wanted[0], 'float');
  P.setValue(rect + 4, wanted[3], 'float');
  P.setValue(rect + 8, wanted[2], 'float');
  P.setValue(rect + 12, wanted[1], 'float');
  m.FPDFAnnot_SetRect(annot, rect);
}

/** The bounds of the annotation's coordinates (L, Vertices or InkList), or null when it has none usable. */
function shapeBounds(m: WrappedPdfiumModule, annot: number, subtype: number): Box | null {
  const P = m.pdfium;
  const points: number[] = [];
  if (subtype === LINE) {
    const ends = P.wasmExports.malloc(16);
    try {
      if (m.FPDFAnnot_GetLine(annot, ends, ends + 8)) for (let k = 0; k < 4; k++) points.push(P.getValue(ends + 4 * k, 'float'));
    } finally {
      P.wasmExports.free(ends);
    }
  } else if (subtype === INK) {
    const paths = m.FPDFAnnot_GetInkListCount(annot);
    for (let p = 0; p < paths && points.length < MAX_POINTS; p++) readPoints(m, (buf, len) => m.FPDFAnnot_GetInkListPath(annot, p, buf, len), points);
  } else readPoints(m, (buf, len) => m.FPDFAnnot_GetVertices(annot, buf, len), points);
  let box: Box | null = null;
  for (let k = 0; k + 1 < points.length; k += 2) {
    const x = points[k]!;
    const y = points[k + 1]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
  }
  return box;
}

/** Appends the FS_POINTFs a PDFium getter gives (asked once for the count, then for the points). */
function readPoints(m: WrappedPdfiumModule, get: (buffer: number, length: number) => number, into: number[]): void {
  const n = Math.min(get(0, 0), MAX_POINTS);
  if (n <= 0) return;
  const P = m.pdfium;
  const buf = P.wasmExports.malloc(n * 8);
  try {
    const got = Math.min(get(buf, n), n);
    for (let k = 0; k < got * 2; k++) into.push(P.getValue(buf + 4 * k, 'float'));
  } finally {
    P.wasmExports.free(buf);
  }
}

const contains = (outer: Box, inner: Box): boolean => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3] && outer[0] < outer[2] && outer[1] < outer[3];

const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
