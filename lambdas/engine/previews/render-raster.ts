/**
 * Image files → preview images through sharp: EXIF orientation applied, CMYK
 * and other colour spaces converted to sRGB, alpha flattened onto the
 * background (kept for PNG/WebP with a transparent background), each page of a
 * multi-page TIFF rendered separately.
 *
 * Size: width/height fit the image inside that box; otherwise `dpi` relative to
 * the resolution the file states (72 ppi when it states none, as viewers
 * assume), so 72 dpi of a 300 ppi photo is a quarter of its pixels. Images are
 * never enlarged beyond what the dpi asks for.
 */
import { join } from 'node:path';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { UnprocessableFileError } from '../../domain/errors';
import { MAX_RASTER_PIXELS } from '../core/image-limits';
import { EXTENSIONS, MIME_TYPES, selectionFailures, selectPages, sizeProblem, targetSize, THUMBNAIL_PX, type PreviewOptions } from './options';
import type { PreviewImage, PreviewOutcome } from './types';

export async function renderRasterPreviews(path: string, o: PreviewOptions, outDir: string): Promise<PreviewOutcome> {
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: MAX_RASTER_PIXELS }).metadata();
  } catch (e) {
    if (e instanceof Error && /Input file is missing/i.test(e.message)) throw e;
    throw new UnprocessableFileError('The image could not be read: the file is damaged, truncated or not a supported image format.');
  }
  // Only TIFF pages are documents' pages; GIF and WebP frames are animation.
  const pageCount = meta.format === 'tiff' ? (meta.pages ?? 1) : 1;
  const selection = selectPages(o.pages, pageCount);
  const { pages } = selection;
  const images: PreviewImage[] = [];
  const failures: PreviewOutcome['failures'] = selectionFailures(selection, pageCount, 'image');

  for (const page of pages) {
    try {
      images.push(await renderPage(path, page, o, 'preview', outDir));
    } catch (e) {
      if (isOurFault(e)) throw e;
      failures.push({ page, reason: e instanceof PageFailure ? e.message : 'The page could not be decoded: the image data is damaged or truncated.' });
    }
  }
  if (o.thumbnail) {
    try {
      images.push(await renderPage(path, 1, { ...o, width: THUMBNAIL_PX, height: THUMBNAIL_PX }, 'thumbnail', outDir));
    } catch (e) {
      // Page 1's own result already reports why it cannot be shown.
      if (isOurFault(e)) throw e;
    }
  }
  return { images, failures: failures.sort((a, b) => a.page - b.page), pages, totalPages: pageCount };
}

class PageFailure extends Error {}

async function renderPage(path: string, page: number, o: PreviewOptions, role: PreviewImage['role'], outDir: string): Promise<PreviewImage> {
  const input = () => sharp(path, { page: page - 1, limitInputPixels: MAX_RASTER_PIXELS, failOn: 'truncated' });
  const meta = await input().metadata();
  const w = meta.autoOrient?.width ?? meta.width ?? 0;
  const h = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!w || !h) throw new PageFailure(`Page ${page} states no pixel size.`);
  const density = meta.density && (meta.resolutionUnit || meta.format === 'png') ? meta.density : 72;
  // Points at the stated density, so dpi and fitting behave as for PDF pages.
  const wPt = (w / density) * 72;
  const hPt = (h / density) * 72;
  let size = targetSize(wPt, hPt, o);
  if (size.width > w || size.height > h) size = { width: w, height: h, scale: 72 / density };
  const problem = sizeProblem(size.width, size.height, o.format);
  if (problem) throw new PageFailure(problem);

  let img: Sharp = input().rotate().resize(size.width, size.height, { fit: 'fill' });
  const transparent = o.background === 'transparent' && o.format !== 'jpeg';
  if (!transparent) img = img.flatten({ background: safeColour(o.background) });
  img = img.toColourspace('srgb');
  img = o.format === 'png' ? img.png() : o.format === 'webp' ? img.webp({ quality: o.quality }) : img.jpeg({ quality: o.quality });
  const out = join(outDir, role === 'thumbnail' ? `thumbnail.${EXTENSIONS[o.format]}` : `page-${page}.${EXTENSIONS[o.format]}`);
  const info = await img.toFile(out);
  return { role, page, path: out, mimeType: MIME_TYPES[o.format], width: info.width, height: info.height, sizeBytes: info.size };
}

/** Writing the output failed (missing directory, full disk): a fault of ours, not of the image. */
function isOurFault(e: unknown): boolean {
  return e instanceof Error && /unable to open for write|ENOSPC|EACCES|ENOENT|No space left/i.test(e.message);
}

/** sharp throws on colours it cannot parse; fall back to white. */
function safeColour(colour: string): string {
  try {
    sharp({ create: { width: 1, height: 1, channels: 3, background: colour } });
    return colour;
  } catch {
    return 'white';
  }
}
