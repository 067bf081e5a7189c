/**
 * "Does the page still print the same?" for autofix: each page rendered by the
 * previews engine, the finished area (TrimBox, else the visible area) cut out
 * of the image using that file's own boxes and rotation, and the two cut-outs
 * compared pixel by pixel. A fix that only changes declarations (boxes opened
 * up, scripts removed, rotation baked in) must leave the cut-outs equal; one
 * that moved or dropped content does not. Used by the autofix tests and by
 * `npm run bench:autofix`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openPdfFile } from '../../lambdas/engine/core/load-pdf';
import { readPageBoxes, setBox } from '../../lambdas/engine/core/page-boxes';
import { renderPreviews } from '../../lambdas/engine/previews';

export interface TrimImage {
  page: number;
  width: number;
  height: number;
  /** Raw RGB, 3 bytes a pixel. */
  data: Uint8Array;
}

export interface PageDifference {
  page: number;
  /** Root mean square difference over all channels, 0–1. */
  rmse: number;
  /** Share of pixels where some channel differs by more than 32 of 255. */
  changedShare: number;
  /** The two cut-outs differ in size by more than a rounding pixel: the finished area itself changed. */
  sizeChanged: boolean;
}

/**
 * The finished area of each page (first `maxPages`), as printed, at `dpi`. The
 * pages are rendered from a copy whose CropBox is set to the TrimBox, so each
 * image is exactly the finished area and two files line up pixel for pixel
 * (cutting the area out of a larger image would shift it by a fraction of a
 * pixel whenever the bleed is not a whole number of pixels wide).
 */
export async function trimImages(pdfPath: string, opts: { dpi?: number; maxPages?: number } = {}): Promise<TrimImage[]> {
  const dpi = opts.dpi ?? 36;
  const { doc } = await openPdfFile(pdfPath);
  const pages = doc.getPages().slice(0, opts.maxPages ?? 3);
  for (const page of pages) setBox(doc.context, page.node, 'CropBox', readPageBoxes(doc.context, page.node).trim);
  const outDir = await mkdtemp(path.join(tmpdir(), 'proofline-trim-'));
  try {
    const cropped = path.join(outDir, 'trimmed.pdf');
    await writeFile(cropped, await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
    const rendered = await renderPreviews({ file: cropped, fileType: 'pdf', params: { format: 'png', dpi, pages: `1-${pages.length}`, thumbnail: false }, outDir });
    const out: TrimImage[] = [];
    for (const image of rendered.images) {
      const { data, info } = await sharp(image.path).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      out.push({ page: image.page, width: info.width, height: info.height, data: new Uint8Array(data) });
    }
    return out;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Page by page, how far `after` is from `before` inside the finished area. */
export function compareTrimImages(before: TrimImage[], after: TrimImage[]): PageDifference[] {
  return before.map((b) => {
    const a = after.find((x) => x.page === b.page);
    if (!a) return { page: b.page, rmse: 1, changedShare: 1, sizeChanged: true };
    const sizeChanged = Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1;
    // Compare the common part: a rounding pixel at the edge is not a change.
    const w = Math.min(a.width, b.width);
    const h = Math.min(a.height, b.height);
    let sum = 0;
    let changed = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let px = false;
        for (let c = 0; c < 3; c++) {
          const d = a.data[(y * a.width + x) * 3 + c]! - b.data[(y * b.width + x) * 3 + c]!;
          sum += d * d;
          if (Math.abs(d) > 32) px = true;
        }
        if (px) changed++;
      }
    }
    const n = w * h;
    return { page: b.page, rmse: n ? Math.sqrt(sum / (n * 3)) / 255 : 0, changedShare: n ? changed / n : 0, sizeChanged };
  });
}

/** Both files rendered and compared inside each page's finished area. */
export async function appearanceDifference(beforePdf: string, afterPdf: string, opts: { dpi?: number; maxPages?: number } = {}): Promise<PageDifference[]> {
  return compareTrimImages(await trimImages(beforePdf, opts), await trimImages(afterPdf, opts));
}

/** Below this RMSE, with no pixel changed beyond anti-aliasing, two renderings print the same. */
export const IMPERCEPTIBLE_RMSE = 0.01;
export const IMPERCEPTIBLE_CHANGED_SHARE = 0.001;

export const printsTheSame = (d: PageDifference): boolean => !d.sizeChanged && d.rmse < IMPERCEPTIBLE_RMSE && d.changedShare < IMPERCEPTIBLE_CHANGED_SHARE;
