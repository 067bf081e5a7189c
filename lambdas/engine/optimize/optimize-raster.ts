/**
 * optimizeRaster: an image file written again by sharp, in its own format,
 * kept only when smaller (otherwise nothing is left at `outPath` and the
 * original stays the deliverable). The transforms, each a fix id:
 *
 * - raster.resize: an image whose longer edge is above maxEdgePx is resized
 *   to fit it (Lanczos 3; never enlarged). The stated resolution (ppi) is
 *   kept as it was, so a workflow that sizes by ppi shows it smaller: this is
 *   for screen use, and off by default;
 * - raster.strip-metadata: EXIF, XMP and IPTC left out. The EXIF orientation
 *   is applied to the pixels first (an image shown rotated stays rotated) and
 *   the resolution (ppi) is written again; not offered for TIFF, whose
 *   resolution sharp keeps only with the rest of the metadata;
 * - raster.reencode: JPEG at `quality` (baseline, optimised Huffman tables,
 *   the original's chroma subsampling where sharp reports it), PNG losslessly
 *   at zlib level 9 with adaptive row filters, TIFF losslessly with Deflate
 *   and a horizontal predictor, WebP at `quality` when it was lossy and
 *   losslessly when it was not. Re-encoding a JPEG is lossy, as the original
 *   was: at the default quality 90 the change is below what the eye sees, and
 *   a JPEG saved at a lower quality comes out larger and is left as it is.
 *
 * Colours are never converted while keepIcc holds: the ICC profile is kept
 * and CMYK stays CMYK (sharp would otherwise convert to sRGB). Multi-page
 * TIFFs, animations, 16-bit images, GIF and other formats are left as they
 * are, with a reason.
 */
import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { UnprocessableFileError } from '../../domain/errors';
import { MAX_RASTER_PIXELS } from '../core/image-limits';
import { FixLog, notSmaller } from './fix-log';
import { resolveRasterParams, type RasterOptimizeParams, type ResolvedRasterParams } from './params';
import type { OptimizeResult } from './types';

const RASTER_FIXES = ['raster.resize', 'raster.strip-metadata', 'raster.reencode'] as const;
const FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff']);

export async function optimizeRaster(inPath: string, outPath: string, params: RasterOptimizeParams = {}): Promise<OptimizeResult> {
  const p = resolveRasterParams(params);
  const sizeBytesBefore = statSync(inPath).size;
  const log = new FixLog();
  const meta = await readMetadata(inPath);
  const refusal = unsupported(meta);
  if (refusal) {
    for (const id of RASTER_FIXES) log.skip(id, refusal);
    return log.result(sizeBytesBefore, null);
  }

  let img = sharp(inPath, { limitInputPixels: MAX_RASTER_PIXELS, failOn: 'truncated' });
  img = resize(img, meta, p, log);
  img = metadata(img, meta, p, log);
  img = encode(img, meta, p, meta.format === 'webp' && isLosslessWebp(inPath));
  log.apply('raster.reencode');

  await img.toFile(outPath);
  const sizeBytes = statSync(outPath).size;
  if (sizeBytes >= sizeBytesBefore) {
    await rm(outPath, { force: true });
    return notSmaller(log, sizeBytesBefore, sizeBytes);
  }
  return log.result(sizeBytesBefore, sizeBytes);
}

async function readMetadata(path: string): Promise<Metadata> {
  try {
    return await sharp(path, { limitInputPixels: MAX_RASTER_PIXELS }).metadata();
  } catch (e) {
    if (e instanceof Error && /Input file is missing/i.test(e.message)) throw e;
    throw new UnprocessableFileError('The image could not be read: the file is damaged, truncated or not a supported image format.');
  }
}

/** Why the file is left as it is, or null. */
function unsupported(meta: Metadata): string | null {
  const format = meta.format ?? 'unknown';
  if (!FORMATS.has(format)) return `Optimizing ${format.toUpperCase()} files is not offered (JPEG, PNG, TIFF and WebP are); the file is left as it is.`;
  if ((meta.pages ?? 1) > 1) return format === 'tiff' ? 'The TIFF has several pages; optimizing would keep only the first, so it is left as it is.' : 'The image is animated; optimizing would keep only its first frame, so it is left as it is.';
  if (meta.depth !== undefined && meta.depth !== 'uchar' && meta.depth !== 'char') return 'The image has more than 8 bits per channel; writing it again could lose precision, so it is left as it is.';
  if (meta.isPalette) return 'The image uses a colour palette; writing it again without one would make it larger, so it is left as it is.';
  return null;
}

function resize(img: Sharp, meta: Metadata, p: ResolvedRasterParams, log: FixLog): Sharp {
  const longest = Math.max(meta.autoOrient?.width ?? meta.width ?? 0, meta.autoOrient?.height ?? meta.height ?? 0);
  if (p.maxEdgePx === null) log.skip('raster.resize', 'Not asked for (params.raster.maxEdgePx is not set).');
  else if (longest <= p.maxEdgePx) log.skip('raster.resize', `The image's longer edge (${longest} px) is not above ${p.maxEdgePx} px.`);
  else {
    log.apply('raster.resize');
    // Orientation first, so the box applies to the image as it is shown.
    return img.autoOrient().resize(p.maxEdgePx, p.maxEdgePx, { fit: 'inside', withoutEnlargement: true });
  }
  return img;
}

function metadata(img: Sharp, meta: Metadata, p: ResolvedRasterParams, log: FixLog): Sharp {
  const cmyk = meta.space === 'cmyk';
  if (cmyk && p.keepIcc) img = img.pipelineColourspace('cmyk').toColourspace('cmyk');
  if (p.keepIcc) img = img.keepIccProfile();
  if (!p.stripMetadata) {
    log.off('raster.strip-metadata', 'raster.stripMetadata');
    return img.keepExif().keepXmp();
  }
  if (meta.format === 'tiff') {
    log.skip('raster.strip-metadata', 'Metadata is kept in TIFF files: their resolution (ppi) would be lost with it.');
    return img.keepExif().keepXmp();
  }
  if (!meta.exif && !meta.xmp && !meta.iptc) {
    log.skip('raster.strip-metadata', 'The image carries no EXIF, XMP or IPTC metadata.');
    return img;
  }
  log.apply('raster.strip-metadata');
  // An empty EXIF block: the orientation applied to the pixels, the resolution written again, nothing else.
  return img.autoOrient().withExif({});
}

function encode(img: Sharp, meta: Metadata, p: ResolvedRasterParams, lossless: boolean): Sharp {
  switch (meta.format) {
    case 'jpeg':
      return img.jpeg({ quality: p.quality, progressive: false, optimiseCoding: true, ...(meta.chromaSubsampling === '4:4:4' ? { chromaSubsampling: '4:4:4' } : {}) });
    case 'png':
      return img.png({ compressionLevel: 9, adaptiveFiltering: true, palette: false });
    case 'webp':
      return lossless ? img.webp({ lossless: true, effort: 6 }) : img.webp({ quality: p.quality, alphaQuality: 100, effort: 6 });
    default:
      return img.tiff({ compression: 'deflate', predictor: 'horizontal' });
  }
}

/**
 * Whether a WebP holds its image as a lossless (VP8L) bitstream: the RIFF
 * chunks are walked until the image's (sharp does not say which it is).
 */
function isLosslessWebp(path: string): boolean {
  const bytes = readFileSync(path);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const tag = bytes.toString('latin1', at, at + 4);
    if (tag === 'VP8L') return true;
    if (tag === 'VP8 ') return false;
    at += 8 + bytes.readUInt32LE(at + 4) + (bytes.readUInt32LE(at + 4) % 2);
  }
  return true;
}
