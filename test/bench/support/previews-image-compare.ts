/**
 * Comparing our page image with poppler's (`pdftoppm`) for the previews bench:
 * both decoded to raw 8-bit RGB, ours brought to poppler's size when the two
 * differ by a rounding pixel or two, and the root-mean-square error over every
 * channel of every pixel on a 0–1 scale (0: identical, 1: black against white
 * everywhere).
 *
 * The two renderers round a page's size differently (pdfjs rounds the scaled
 * crop box, poppler takes the ceiling of it), so a difference of a pixel or two
 * is expected and is not a disagreement. Both draw the page from its top-left
 * corner at the same scale, so the content sits at the same pixels and only
 * the last partial column or row differs: ours is cropped or extended with
 * white there, not resized (stretching by one pixel in 595 would shift the
 * right side of the page by up to a pixel, and text edges would count as
 * differences: 0.19 instead of 0.14 on one real form). A larger difference
 * means the renderers chose different page boxes or rotations: ours is then
 * resized to poppler's size, compared (the figure shows how different the
 * pictures are), and flagged.
 */
import sharp from 'sharp';

/** Raw RGB pixels, three bytes per pixel, rows top to bottom. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Size differences up to this many pixels per side count as rounding. */
export const ROUNDING_TOLERANCE_PX = 2;

export type SizeRelation = 'same' | 'rounding' | 'different';

export function sizeRelation(a: Pick<RgbImage, 'width' | 'height'>, b: Pick<RgbImage, 'width' | 'height'>): SizeRelation {
  const dw = Math.abs(a.width - b.width);
  const dh = Math.abs(a.height - b.height);
  if (dw === 0 && dh === 0) return 'same';
  return dw <= ROUNDING_TOLERANCE_PX && dh <= ROUNDING_TOLERANCE_PX ? 'rounding' : 'different';
}

/** RMSE over all channels on a 0–1 scale; both images must have the same size. */
export function rmse(a: RgbImage, b: RgbImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`rmse: sizes differ (${a.width}×${a.height} against ${b.width}×${b.height})`);
  const n = a.width * a.height * 3;
  if (a.data.length !== n || b.data.length !== n) throw new Error('rmse: pixel data is not width × height × 3 bytes');
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = a.data[i]! - b.data[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum / n) / 255;
}

/**
 * `img` cropped or extended (with white) at its right and bottom edges to
 * `width` × `height`; the top-left pixel stays where it is.
 */
export function alignTopLeft(img: RgbImage, width: number, height: number): RgbImage {
  if (img.width === width && img.height === height) return img;
  const data = new Uint8Array(width * height * 3).fill(255);
  const w = Math.min(width, img.width);
  for (let y = 0; y < Math.min(height, img.height); y++) {
    data.set(img.data.subarray(y * img.width * 3, (y * img.width + w) * 3), y * width * 3);
  }
  return { width, height, data };
}

/** Decodes an image file to RGB, transparency flattened onto white (as paper is). */
export async function decodeRgb(file: string, resizeTo?: { width: number; height: number }): Promise<RgbImage> {
  let pipeline = sharp(file, { limitInputPixels: false }).flatten({ background: '#ffffff' }).removeAlpha().toColourspace('srgb');
  // `fill`: every pixel of ours takes part in the comparison, whatever the aspect.
  if (resizeTo) pipeline = pipeline.resize(resizeTo.width, resizeTo.height, { fit: 'fill' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`decodeRgb: ${info.channels} channels in ${file}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

export interface PageComparison {
  rmse: number;
  sizes: SizeRelation;
  ours: { width: number; height: number };
  poppler: { width: number; height: number };
}

/** Our image against poppler's, brought to poppler's size where they differ (see the top of this file). */
export async function comparePageImages(oursFile: string, popplerFile: string): Promise<PageComparison> {
  const theirs = await decodeRgb(popplerFile);
  const decoded = await decodeRgb(oursFile);
  const ours = { width: decoded.width, height: decoded.height };
  const sizes = sizeRelation(ours, theirs);
  const aligned =
    sizes === 'different' ? await decodeRgb(oursFile, { width: theirs.width, height: theirs.height }) : alignTopLeft(decoded, theirs.width, theirs.height);
  return { rmse: rmse(aligned, theirs), sizes, ours, poppler: { width: theirs.width, height: theirs.height } };
}
