/**
 * Image agreement with `pdfimages -list`: for each image placement poppler
 * lists, do we list a placement of the same image on the same page with x and
 * y resolution within 1 % of poppler's?
 *
 * Which poppler rows are comparable:
 * - `image` and `stencil` (an /ImageMask image) rows are placements we report.
 * - `smask` and `mask` rows are not: they describe the soft mask or explicit
 *   mask travelling with an image (they carry the parent's object number and
 *   placement and their own pixel size). Preflight judges the image, whose
 *   resolution is what prints; these rows are counted apart.
 * - A row whose ppi poppler prints as `inf` or `nan` has no resolution to
 *   compare (a placement squeezed to nothing); counted apart too.
 *
 * Matching: an image XObject by page and object number; an inline image (or a
 * `[none]` row) by page and pixel size. When several placements share a key (an
 * object placed several times, or a form painted twice) the pairs are chosen
 * greedily, closest first, each placement used once. A comparable row left
 * without a partner counts as a disagreement.
 */
import { ppiAgrees, type PopplerImageRow } from './pdfimages-output';

/** What the bench needs to know about one image placement of our report. */
export interface OurImage {
  page: number;
  /** Null for an inline image. */
  objectNumber: number | null;
  inline: boolean;
  width: number;
  height: number;
  /**
   * Resolution in poppler's terms: per 1/72 inch of user space, i.e. with the
   * page's UserUnit taken back out (poppler ignores UserUnit).
   */
  ppiX: number;
  ppiY: number;
}

export type ImageVerdict = 'within' | 'outside' | 'missing' | 'mask-row' | 'degenerate';

export interface ImageComparison {
  poppler: PopplerImageRow;
  ours: OurImage | null;
  verdict: ImageVerdict;
}

export interface ImageMatching {
  comparisons: ImageComparison[];
  /** Our placements no comparable poppler row was paired with. */
  oursOnly: OurImage[];
}

export const PPI_TOLERANCE = 0.01;

export function compareImages(popplerRows: readonly PopplerImageRow[], ours: readonly OurImage[]): ImageMatching {
  const comparisons: ImageComparison[] = popplerRows.map((row) => ({ poppler: row, ours: null, verdict: 'missing' }));
  const popplerGroups = new Map<string, ImageComparison[]>();
  for (const c of comparisons) {
    const row = c.poppler;
    if (row.type === 'smask' || row.type === 'mask') c.verdict = 'mask-row';
    else if (!Number.isFinite(row.xPpi) || !Number.isFinite(row.yPpi)) c.verdict = 'degenerate';
    else push(popplerGroups, popplerKey(row), c);
  }
  const ourGroups = new Map<string, OurImage[]>();
  for (const img of ours) push(ourGroups, ourKey(img), img);

  const paired = new Set<OurImage>();
  for (const [key, rows] of popplerGroups) {
    const candidates = ourGroups.get(key) ?? [];
    const pairs: { c: ImageComparison; img: OurImage; error: number }[] = [];
    for (const c of rows) for (const img of candidates) pairs.push({ c, img, error: relativeError(c.poppler, img) });
    pairs.sort((a, b) => a.error - b.error);
    for (const { c, img } of pairs) {
      if (c.ours || paired.has(img)) continue;
      c.ours = img;
      paired.add(img);
      const agrees = ppiAgrees(img.ppiX, c.poppler.xPpi, PPI_TOLERANCE) && ppiAgrees(img.ppiY, c.poppler.yPpi, PPI_TOLERANCE);
      c.verdict = agrees ? 'within' : 'outside';
    }
  }
  return { comparisons, oursOnly: ours.filter((img) => !paired.has(img)) };
}

function popplerKey(row: PopplerImageRow): string {
  return row.objectNumber === null ? `${row.page}:inline:${row.width}x${row.height}` : `${row.page}:obj:${row.objectNumber}`;
}

function ourKey(img: OurImage): string {
  return img.objectNumber === null || img.inline ? `${img.page}:inline:${img.width}x${img.height}` : `${img.page}:obj:${img.objectNumber}`;
}

function relativeError(row: PopplerImageRow, img: OurImage): number {
  const e = Math.max(Math.abs(img.ppiX - row.xPpi) / row.xPpi, Math.abs(img.ppiY - row.yPpi) / row.yPpi);
  return Number.isFinite(e) ? e : Number.MAX_VALUE;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface ImageAgreement {
  /** Comparable poppler rows (image and stencil with a finite resolution). */
  rows: number;
  within: number;
  outside: number;
  missing: number;
  maskRows: number;
  degenerate: number;
}

export function tallyImages(comparisons: readonly ImageComparison[]): ImageAgreement {
  const count = (v: ImageVerdict) => comparisons.filter((c) => c.verdict === v).length;
  const within = count('within');
  const outside = count('outside');
  const missing = count('missing');
  return { rows: within + outside + missing, within, outside, missing, maskRows: count('mask-row'), degenerate: count('degenerate') };
}
