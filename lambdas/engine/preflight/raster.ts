/**
 * Preflight of image files (JPEG, PNG, TIFF, WebP, GIF) through sharp: pixel
 * size, stated density and the physical size it implies, the resolution the
 * image reaches at the ordered artwork size, colour space, ICC profile, alpha
 * and bit depth. The image is also decoded (at a reduced size, which is cheap)
 * so a truncated or corrupt file is refused here rather than later.
 */
import { stat } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { UnprocessableFileError } from '../../domain/errors';
import { MAX_RASTER_PIXELS } from '../core/image-limits';
import { num, type MessageWriter, type Observation } from './findings';
import type { CheckId, RasterCheckId } from './check-catalogue';
import { pageCountMessage, pageCountObservations } from './page-count';
import { iccDescription } from './icc-description';
import type { ImageSection, RasterDocumentSection } from './report';
import type { PreflightSettings } from './settings';

const MM_PER_INCH = 25.4;

export async function gatherRasterFacts(path: string, settings: PreflightSettings): Promise<RasterDocumentSection> {
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: MAX_RASTER_PIXELS }).metadata();
    // Decoding proves the data is intact; shrink-on-load keeps it fast.
    await sharp(path, { failOn: 'truncated', limitInputPixels: MAX_RASTER_PIXELS }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch (e) {
    throw unreadableImage(e);
  }
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) throw new UnprocessableFileError('The image could not be read: it states no pixel size.');
  // A density is only meaningful with a unit (JFIF "aspect ratio only" reports 72 without one); PNG stores pixels per metre.
  const density = meta.density && (meta.resolutionUnit || meta.format === 'png') ? meta.density : null;
  const sizeMm = density ? { width: round1((width / density) * MM_PER_INCH), height: round1((height / density) * MM_PER_INCH) } : null;
  const art = settings.thresholds('artwork.size-mismatch') ?? settings.thresholds('artwork.aspect-mismatch');
  const effectivePpi = art ? ppiAtArtwork(width, height, Number(art.width_mm), Number(art.height_mm)) : density;
  return {
    kind: 'raster',
    format: meta.format ?? 'unknown',
    fileSizeBytes: (await stat(path)).size,
    widthPx: width,
    heightPx: height,
    // Only TIFF pages are document pages; GIF and WebP frames are animation.
    pageCount: meta.format === 'tiff' ? (meta.pages ?? 1) : 1,
    densityPpi: density ? Math.round(density) : null,
    sizeMm,
    effectivePpi: effectivePpi === null ? null : Math.round(effectivePpi),
    colourSpace: meta.space ?? 'unknown',
    channels: meta.channels ?? 0,
    bitsPerSample: meta.bitsPerSample ?? null,
    hasAlpha: meta.hasAlpha ?? false,
    hasIccProfile: meta.hasProfile ?? false,
    iccProfileDescription: meta.icc ? iccDescription(meta.icc) : null,
  };
}

/** sharp's names of the RGB colour spaces. */
const RGB_SPACES = /^(srgb|rgb|rgb16|scrgb)$/;

/**
 * The PDF colour space the image would be placed in: ICCBased with its
 * embedded profile, else the device space of its colour model; null for the
 * spaces sharp reports that have no PDF counterpart (multiband, HSV, XYZ…).
 */
export function rasterPdfColourSpace(facts: Pick<RasterDocumentSection, 'colourSpace' | 'hasIccProfile'>): string | null {
  const device = RGB_SPACES.test(facts.colourSpace) ? 'DeviceRGB' : facts.colourSpace === 'cmyk' ? 'DeviceCMYK' : /^(b-w|grey16)$/.test(facts.colourSpace) ? 'DeviceGray' : /^lab[sq]?$/.test(facts.colourSpace) ? 'Lab' : null;
  return device !== null && facts.hasIccProfile ? 'ICCBased' : device;
}

/** The image file as the report's one image, so clients read resolution the same way for PDFs and images. */
export function rasterImageSection(facts: RasterDocumentSection): ImageSection {
  return {
    page: 1,
    width: facts.widthPx,
    height: facts.heightPx,
    // Scaled uniformly (to its stated size or to cover the artwork), both axes share one resolution.
    ppiX: facts.effectivePpi,
    ppiY: facts.effectivePpi,
    colorSpace: facts.colourSpace,
    bitsPerComponent: facts.bitsPerSample,
    bbox: null,
    objectNumber: null,
    inline: false,
    imageMask: false,
    filter: facts.format,
    softMask: facts.hasAlpha,
    placedMm: facts.sizeMm,
  };
}

function unreadableImage(e: unknown): Error {
  const msg = e instanceof Error ? e.message : String(e);
  // A file that is not where the worker put it is our fault, not the customer's.
  if (/Input file is missing/i.test(msg)) return e as Error;
  if (/pixel limit/i.test(msg)) {
    return new UnprocessableFileError(`The image is larger than ${MAX_RASTER_PIXELS / 1_000_000} megapixels and cannot be processed; reduce its size.`);
  }
  return new UnprocessableFileError('The image could not be read: the file is damaged, truncated or not a supported image format.');
}

/**
 * Resolution when the image is scaled to cover the artwork (orientation matched
 * to the image's): the axis that needs the larger scale decides.
 */
export function ppiAtArtwork(widthPx: number, heightPx: number, artWmm: number, artHmm: number): number {
  const landscape = widthPx >= heightPx;
  const [longMm, shortMm] = [Math.max(artWmm, artHmm), Math.min(artWmm, artHmm)];
  const [wMm, hMm] = landscape ? [longMm, shortMm] : [shortMm, longMm];
  return Math.min(widthPx / (wMm / MM_PER_INCH), heightPx / (hMm / MM_PER_INCH));
}

export function checkRaster(facts: RasterDocumentSection, settings: PreflightSettings): Observation<RasterCheckId>[] {
  const out: Observation<RasterCheckId>[] = [];
  const active = (id: RasterCheckId) => settings.severity(id) !== 'off';
  const oneBit = facts.bitsPerSample === 1;
  const ppi = facts.effectivePpi;
  const art = settings.thresholds('artwork.size-mismatch') ?? settings.thresholds('artwork.aspect-mismatch');

  if (ppi === null) {
    if (active('image.resolution-unknown')) out.push({ checkId: 'image.resolution-unknown', page: 1, measured: { density_ppi: null }, required: 'a stated resolution or an ordered artwork size' });
  } else {
    const low = settings.thresholds('images.resolution-low') ?? {};
    const rec = settings.thresholds('images.resolution-marginal') ?? {};
    const min = Number(oneBit ? low.min_ppi_1bit : low.min_ppi);
    const recommended = Number(oneBit ? rec.recommended_ppi_1bit : rec.recommended_ppi);
    const measured = { effective_ppi: ppi, width_px: facts.widthPx, height_px: facts.heightPx, basis: art ? 'artwork size' : 'stated density' };
    if (active('images.resolution-low') && ppi < min) out.push({ checkId: 'images.resolution-low', page: 1, measured, required: { min_ppi: min } });
    else if (active('images.resolution-marginal') && ppi < recommended) out.push({ checkId: 'images.resolution-marginal', page: 1, measured, required: { recommended_ppi: recommended } });
  }

  if (active('image.rgb') && RGB_SPACES.test(facts.colourSpace)) out.push({ checkId: 'image.rgb', page: 1, measured: { colourSpace: facts.colourSpace }, required: 'CMYK' });
  if (active('image.alpha') && facts.hasAlpha) out.push({ checkId: 'image.alpha', page: 1, measured: { alpha: true }, required: { alpha: false } });
  if (active('image.no-icc') && !facts.hasIccProfile) out.push({ checkId: 'image.no-icc', page: 1, measured: { iccProfile: false }, required: { iccProfile: true } });

  const aspect = settings.thresholds('artwork.aspect-mismatch');
  if (aspect) {
    const excess = aspectExcessMm(facts.widthPx, facts.heightPx, Number(aspect.width_mm), Number(aspect.height_mm));
    if (excess > Number(aspect.tolerance_mm)) {
      out.push({
        checkId: 'artwork.aspect-mismatch',
        page: 1,
        measured: { width_px: facts.widthPx, height_px: facts.heightPx, excess_mm: round1(excess) },
        required: { width_mm: aspect.width_mm, height_mm: aspect.height_mm, tolerance_mm: aspect.tolerance_mm },
      });
    }
  }
  out.push(...pageCountObservations(facts.pageCount, settings));
  return out;
}

/** How much of the image (in mm) falls outside the artwork when scaled to cover it. */
export function aspectExcessMm(widthPx: number, heightPx: number, artWmm: number, artHmm: number): number {
  const landscape = widthPx >= heightPx;
  const [longMm, shortMm] = [Math.max(artWmm, artHmm), Math.min(artWmm, artHmm)];
  const [wMm, hMm] = landscape ? [longMm, shortMm] : [shortMm, longMm];
  const scale = Math.max(wMm / widthPx, hMm / heightPx);
  return Math.max(widthPx * scale - wMm, heightPx * scale - hMm);
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** A message for every check an image file gets: one without a message does not compile. */
export const RASTER_MESSAGES: Partial<Record<CheckId, MessageWriter>> = {
  'image.resolution-unknown': () =>
    'The image does not state its resolution and no artwork size was ordered, so its print resolution cannot be judged; state the print size in the order.',
  'images.resolution-low': ({ worst }) => rasterResolution(worst, 'minimum', 'min_ppi', 'it will print visibly blurred or pixelated'),
  'images.resolution-marginal': ({ worst }) => rasterResolution(worst, 'recommended', 'recommended_ppi', 'fine detail may look soft'),
  'image.rgb': () => 'The image is RGB; the printer converts it to CMYK, which can make bright colours (vivid greens, blues, oranges) print duller.',
  'image.alpha': () => 'The image has transparency; transparent areas print as bare paper.',
  'image.no-icc': () =>
    'The image has no embedded ICC colour profile, so its colours are interpreted with a generic profile and may print differently than intended.',
  'artwork.aspect-mismatch': ({ worst }) => {
    const m = worst.measured as { width_px: number; height_px: number; excess_mm: number };
    const r = worst.required as { width_mm: number; height_mm: number };
    return `The image's proportions (${m.width_px} × ${m.height_px} px) differ from the ordered ${num(r.width_mm)} × ${num(r.height_mm)} mm; scaled to fill it, ${num(m.excess_mm)} mm would be cropped.`;
  },
  'document.page-count': ({ worst }) => pageCountMessage(worst, 'The image file'),
} satisfies Record<RasterCheckId, MessageWriter>;

function rasterResolution(worst: Observation, kind: string, key: string, consequence: string): string {
  const m = worst.measured as { effective_ppi: number; width_px: number; height_px: number; basis: string };
  const req = (worst.required as Record<string, number>)[key];
  const basis = m.basis === 'artwork size' ? 'at the ordered artwork size' : 'at its stated size';
  return `The image (${m.width_px} × ${m.height_px} px) reaches ${m.effective_ppi} ppi ${basis}, below the ${kind} ${req} ppi; ${consequence}.`;
}
