/**
 * Image checks on every placement: effective resolution where the image is
 * placed (the lower of its x and y ppi, in whole ppi as pdfimages reports it),
 * with 1-bit images (line art, stencil masks) judged on their own thresholds,
 * and 16-bit images. Tiny images (GWG: 16 px or less on a side) are exempt.
 */
import type { PlacedImage } from '../core/interpret/types';
import { num, type GroupView, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import type { ImageSection } from './report';
import type { PreflightSettings } from './settings';

export interface ImageFacts extends ImageSection {
  /** Where it is painted: inside a soft mask it shapes transparency rather than showing pixels. */
  within: PlacedImage['within'];
}

export function checkImages(images: ImageFacts[], settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const low = settings.thresholds('images.resolution-low');
  const marginal = settings.thresholds('images.resolution-marginal');
  const sixteen = settings.severity('images.16-bit') !== 'off';

  for (const img of images) {
    if (img.within === 'softmask') continue;
    if (sixteen && img.bitsPerComponent === 16) {
      out.push({ checkId: 'images.16-bit', page: img.page, bbox: img.bbox, measured: { bits_per_component: 16, width_px: img.width, height_px: img.height }, required: { bits_per_component: 8 } });
    }
    const ppi = effectivePpi(img);
    if ((!low && !marginal) || ppi === null) continue;
    const exemptPx = Number(low?.ignore_max_px ?? marginal?.ignore_max_px ?? 0);
    if (img.width <= exemptPx || img.height <= exemptPx) continue;
    const oneBit = img.imageMask || img.bitsPerComponent === 1;
    const measured = { effective_ppi: ppi, ppi_x: img.ppiX, ppi_y: img.ppiY, width_px: img.width, height_px: img.height, placed_mm: img.placedMm, one_bit: oneBit };
    const subject = oneBit ? '1-bit' : null;
    const min = Number(oneBit ? low?.min_ppi_1bit : low?.min_ppi);
    const rec = Number(oneBit ? marginal?.recommended_ppi_1bit : marginal?.recommended_ppi);
    if (low && ppi < min) {
      out.push({ checkId: 'images.resolution-low', page: img.page, subject, bbox: img.bbox, measured, required: { min_ppi: min }, rank: ppi });
    } else if (marginal && ppi < rec) {
      out.push({ checkId: 'images.resolution-marginal', page: img.page, subject, bbox: img.bbox, measured, required: { recommended_ppi: rec }, rank: ppi });
    }
  }
  return out;
}

/** The resolution an image is judged at: the lower of its x and y ppi, in whole ppi; null when either is unknown. */
export function effectivePpi(img: Pick<ImageSection, 'ppiX' | 'ppiY'>): number | null {
  return img.ppiX === null || img.ppiY === null ? null : Math.round(Math.min(img.ppiX, img.ppiY));
}

function resolutionMessage({ count, pagesText, worst, subject }: GroupView, kind: 'minimum' | 'recommended', consequence: string): string {
  const m = worst.measured as { effective_ppi: number };
  const req = Object.values(worst.required as Record<string, number>)[0]!;
  const what = subject === '1-bit' ? '1-bit image' : 'image';
  const need = kind === 'minimum' ? `this product needs at least ${req} ppi` : `${req} ppi is recommended`;
  return count === 1
    ? `The ${what} on ${pagesText} is ${m.effective_ppi} ppi where it is placed; ${need}, so ${consequence}.`
    : `${count} ${what} placements on ${pagesText} are below ${req} ppi (lowest ${m.effective_ppi} ppi, page ${worst.page}); ${need}, so ${consequence}.`;
}

export const IMAGE_MESSAGES = {
  'images.resolution-low': (g) => resolutionMessage(g, 'minimum', g.count === 1 ? 'it will print visibly blurred or pixelated' : 'they will print visibly blurred or pixelated'),
  'images.resolution-marginal': (g) => resolutionMessage(g, 'recommended', 'fine detail may look soft'),
  'images.16-bit': ({ count, pagesText, worst }) => {
    const m = worst.measured as { width_px: number; height_px: number };
    return count === 1
      ? `The image on ${pagesText} (${num(m.width_px)} × ${num(m.height_px)} px) has 16 bits per colour; most print workflows reduce it to 8 bits, so the extra data only makes the file larger.`
      : `${count} images on ${pagesText} have 16 bits per colour; most print workflows reduce them to 8 bits, so the extra data only makes the file larger.`;
  },
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
