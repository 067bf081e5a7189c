/**
 * The original hosted service's snake_case view of the report's facts
 * (docs/api.md §11 rule 5): `source`, `errors`, `pdf`, `spot_colors`, and on
 * each page and image the fields its clients read. Each is a restatement of a
 * fact the report already holds, never a measurement of its own.
 */
import { MM_PER_PT, round1 } from '../core/page-boxes';
import { leastBleedMm } from './checks-boxes';
import { effectivePpi } from './checks-images';
import { rasterPdfColourSpace } from './raster';
import type { ImageSection, PageSection, PreflightReport, ReportImage, ReportPage, SpotColourSection } from './report';

export type ReferenceFacts = Pick<PreflightReport, 'source' | 'errors' | 'pdf' | 'spot_colors'> & { pages: ReportPage[]; images: ReportImage[] };

export interface FactSections {
  document: PreflightReport['document'];
  pages: PageSection[];
  images: ImageSection[];
  spotColors: SpotColourSection[];
}

/** `name`: the file's name as its customer knows it. */
export function referenceFacts(name: string, s: FactSections): ReferenceFacts {
  const doc = s.document;
  const imageSpace = (img: ImageSection) => (doc.kind === 'raster' ? rasterPdfColourSpace(doc) : pdfColourSpaceName(img.colorSpace));
  return {
    source: { name, sizeBytes: doc.fileSizeBytes },
    // The pages where content analysis stopped early (as analysisLimits lists them: at most 100); an image file is read whole or refused.
    errors: doc.kind === 'pdf' ? doc.analysisLimits.map((l) => `Page ${l.page}: ${l.detail}`) : [],
    pdf: doc.kind === 'pdf' ? { version: doc.pdfVersion, page_count: doc.pageCount, tagged: doc.tagged } : null,
    spot_colors: s.spotColors.map((c) => c.name),
    // bleedMm is as the page is seen (UserUnit applied), so these are points of 1/72 inch too.
    pages: s.pages.map((p) => ({ ...p, bleed_pt: p.bleedMm ? round1(leastBleedMm(p.bleedMm) / MM_PER_PT) : null })),
    images: s.images.map((img) => ({ ...img, effective_dpi: effectivePpi(img), color_space: imageSpace(img) })),
  };
}

/** The colour space families of ISO 32000 (8.6), which our labels start with ("ICCBased RGB", "Indexed DeviceRGB", "Separation PANTONE 185 C"). */
const PDF_COLOUR_SPACES = new Set(['DeviceGray', 'DeviceRGB', 'DeviceCMYK', 'CalGray', 'CalRGB', 'Lab', 'ICCBased', 'Indexed', 'Pattern', 'Separation', 'DeviceN']);

/** The PDF name of a colour space label; null for none (a stencil mask) or one we could not tell (JPX data, unknown spaces). */
export function pdfColourSpaceName(label: string | null): string | null {
  const family = label?.split(' ', 1)[0];
  return family !== undefined && PDF_COLOUR_SPACES.has(family) ? family : null;
}
