/**
 * Reads the table `pdfimages -list` prints (poppler-utils 22.x,
 * utils/ImageOutputDev.cc listImage):
 *
 *   page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio
 *   --------------------------------------------------------------------------------------------
 *      1     0 image    2480  3508  rgb     3   8  jpeg   no        12  0   300   300  402K 1.6%
 *      1     1 image     161    47  gray    1   8  image  yes  [inline]     109   108    0B 0.0%
 *
 * One row per image painted (a form or image drawn twice gives two rows), plus
 * a row of type `smask` or `mask` for the soft mask / explicit mask that
 * accompanies an image, with the mask's own pixel size and the parent's
 * placement. Every field is one whitespace-free token; the object id is two
 * numbers, or `[inline]` for an inline image, or `[none]`.
 *
 * How poppler 22.12 computes x-ppi and y-ppi (checked on generated files, not
 * read from an older source: older releases used a + c, which broke on rotation):
 *
 *   xppi = width · 72 / |(ctm[0], ctm[1])|, yppi = height · 72 / |(ctm[2], ctm[3])|
 *   printed %5.0f, or %5.3f below 1; `inf` for a degenerate placement.
 *
 * - So it is the geometric resolution along each image axis: rotation of the
 *   placement or of the page (/Rotate) does not change it.
 * - The page's UserUnit is not applied (a page with UserUnit 2 still prints the
 *   figure for 1/72 inch units).
 * - A soft mask (`smask`) or explicit mask (`mask`) row carries the *parent*
 *   image's object number, its own pixel size and the parent's placement.
 * - Not listed: images inside Type 3 glyph procedures and inside tiling
 *   patterns. Listed: images in annotation appearances (after the page's own),
 *   in soft-mask groups of an ExtGState, in forms (once per painting).
 */

export type PopplerImageType = 'image' | 'mask' | 'smask' | 'stencil';

export interface PopplerImageRow {
  page: number;
  /** Poppler's running image number in the file. */
  num: number;
  type: PopplerImageType;
  width: number;
  height: number;
  /** gray, rgb, cmyk, lab, icc, index, sep, devn, or `-` (masks, stencils). */
  color: string;
  components: number;
  bitsPerComponent: number;
  /** image, jpeg, jp2, jbig2, ccitt. */
  encoding: string;
  interpolate: boolean;
  inline: boolean;
  /** Null for inline images and `[none]`. */
  objectNumber: number | null;
  generation: number | null;
  /** As printed: NaN when poppler printed inf or nan (a degenerate placement). */
  xPpi: number;
  yPpi: number;
}

const TYPES = new Set<string>(['image', 'mask', 'smask', 'stencil']);

/** Every image row of a `pdfimages -list` run; header, rule and any other line are skipped. */
export function parsePdfimagesList(stdout: string): PopplerImageRow[] {
  const rows: PopplerImageRow[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const t = line.trim().split(/\s+/);
    if (t.length < 14 || !TYPES.has(t[2]!) || !/^\d+$/.test(t[0]!)) continue;
    let i = 10;
    let objectNumber: number | null = null;
    let generation: number | null = null;
    const inline = t[i] === '[inline]';
    if (inline || t[i] === '[none]') i += 1;
    else {
      objectNumber = Number(t[i]);
      generation = Number(t[i + 1]);
      i += 2;
    }
    if (t.length < i + 4) continue;
    rows.push({
      page: Number(t[0]),
      num: Number(t[1]),
      type: t[2] as PopplerImageType,
      width: Number(t[3]),
      height: Number(t[4]),
      color: t[5]!,
      components: Number(t[6]),
      bitsPerComponent: Number(t[7]),
      encoding: t[8]!,
      interpolate: t[9] === 'yes',
      inline,
      objectNumber,
      generation,
      xPpi: printedNumber(t[i]!),
      yPpi: printedNumber(t[i + 1]!),
    });
  }
  return rows;
}

function printedNumber(token: string): number {
  return /^[0-9.]+$/.test(token) ? Number(token) : NaN;
}

/** Half the last printed digit of a poppler ppi value: integers from 1 up, three decimals below. */
export function popplerPpiPrecision(printed: number): number {
  return printed < 1 ? 0.0005 : 0.5;
}

/**
 * Whether our resolution is within `tolerance` (a fraction: 0.01 for 1 %) of the
 * one poppler printed. Poppler's rounding to the printed digits is added to the
 * allowance, so it is not counted as our error (at 30 ppi, one unit is 3 %).
 */
export function ppiAgrees(ours: number, popplerPrinted: number, tolerance: number): boolean {
  if (!Number.isFinite(ours) || !Number.isFinite(popplerPrinted)) return false;
  return Math.abs(ours - popplerPrinted) <= tolerance * popplerPrinted + popplerPpiPrecision(popplerPrinted);
}
