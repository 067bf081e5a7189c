/**
 * Previews: page images of a PDF or image file, plus a thumbnail of page 1.
 * Pages that cannot be rendered are reported in `failures` with the reason;
 * the others are still delivered.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { MAX_PIXELS_PER_PAGE, readOptions } from './options';
import { renderPdfPreviews } from './render-pdf';
import { renderRasterPreviews } from './render-raster';
import type { PreviewImage } from './types';

export type { PreviewImage } from './types';

export interface PreviewsInput {
  path: string;
  fileType: 'pdf' | 'raster';
  params: Record<string, unknown>;
  outDir: string;
}

export interface PreviewsResult {
  images: PreviewImage[];
  failures: { page: number; reason: string }[];
  runtimeParams: Record<string, unknown>;
}

export async function renderPreviews(input: PreviewsInput): Promise<PreviewsResult> {
  const o = readOptions(input.params);
  await mkdir(input.outDir, { recursive: true });
  const outcome =
    input.fileType === 'pdf'
      ? await renderPdfPreviews(new Uint8Array(await readFile(input.path)), o, input.outDir)
      : await renderRasterPreviews(input.path, o, input.outDir);
  return {
    images: outcome.images,
    failures: outcome.failures,
    runtimeParams: {
      format: o.format,
      ...(o.width !== null || o.height !== null ? { width: o.width, height: o.height } : { dpi: o.dpi }),
      ...(o.format === 'png' ? {} : { quality: o.quality }),
      background: o.background,
      pages: outcome.pages,
      thumbnail: o.thumbnail,
      maxPixelsPerPage: MAX_PIXELS_PER_PAGE,
    },
  };
}
