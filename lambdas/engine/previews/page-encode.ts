/**
 * Rendered pixels → an image file in the out dir, encoded by sharp; shared by
 * both renderers (page-render-pdfium.ts, page-render.ts). Encoding and writing
 * are our side: their errors stay plain errors (faults), not the page's.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { EXTENSIONS, MIME_TYPES, type PreviewOptions } from './options';
import type { PreviewImage } from './types';

/** Writes RGBA pixels (rows packed) as the options' format; JPEG is flattened onto white. */
export async function writePageImage(
  rgba: Buffer,
  width: number,
  height: number,
  o: PreviewOptions,
  pageNo: number,
  role: PreviewImage['role'],
  outDir: string,
): Promise<PreviewImage> {
  const raw = sharp(rgba, { raw: { width, height, channels: 4 } });
  const encoded = o.format === 'png' ? raw.png() : o.format === 'webp' ? raw.webp({ quality: o.quality }) : raw.flatten({ background: '#ffffff' }).jpeg({ quality: o.quality });
  const path = join(outDir, role === 'thumbnail' ? `thumbnail.${EXTENSIONS[o.format]}` : `page-${pageNo}.${EXTENSIONS[o.format]}`);
  const info = await encoded.toFile(path);
  return { role, page: pageNo, path, mimeType: MIME_TYPES[o.format], width: info.width, height: info.height, sizeBytes: info.size };
}
