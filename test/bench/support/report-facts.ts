/**
 * The fonts and image placements of a preflight report, in the terms the
 * poppler comparison uses. The report is read structurally (not through its
 * TypeScript type) so the bench says clearly which field it misses when it runs
 * against a report that does not carry it yet, rather than comparing nothing.
 */
import type { OurFont } from './font-agreement';
import type { OurImage } from './image-agreement';

export interface ReportFacts {
  fonts: OurFont[];
  images: OurImage[];
  /** The report lists fewer image placements than the file has. */
  imagesTruncated: boolean;
}

/** Fields the comparison reads; a report without one of them cannot be compared. */
export const REQUIRED_FIELDS = {
  fonts: ['objectNumber', 'name', 'type', 'embedded'],
  images: ['page', 'objectNumber', 'inline', 'width', 'height', 'ppiX', 'ppiY'],
} as const;

type Loose = Record<string, unknown>;

/**
 * Reads the comparison's facts from a report, or explains which field is
 * missing. Resolutions are turned back into poppler's terms: a page's UserUnit
 * scales its user space unit (ISO 32000-1 14.11.2, PDF 1.6), which our
 * effective resolution accounts for and poppler's does not.
 */
export function reportFacts(report: unknown): ReportFacts | { missing: string } {
  const r = (report ?? {}) as Loose;
  const fonts = Array.isArray(r['fonts']) ? (r['fonts'] as Loose[]) : [];
  const images = Array.isArray(r['images']) ? (r['images'] as Loose[]) : [];
  const pages = Array.isArray(r['pages']) ? (r['pages'] as Loose[]) : [];
  for (const [section, list] of [['fonts', fonts], ['images', images]] as const) {
    for (const field of REQUIRED_FIELDS[section]) {
      if (list.some((item) => !(field in item))) return { missing: `${section}[].${field}` };
    }
  }
  const userUnit = (page: number) => {
    const u = pages[page - 1]?.['userUnit'];
    return typeof u === 'number' && u > 0 ? u : 1;
  };
  return {
    fonts: fonts.map((f) => ({
      objectNumber: numberOrNull(f['objectNumber']),
      name: String(f['name']),
      type: String(f['type']),
      embedded: f['embedded'] === true,
    })),
    images: images.map((i) => {
      const page = Number(i['page']);
      return {
        page,
        objectNumber: numberOrNull(i['objectNumber']),
        inline: i['inline'] === true,
        width: Number(i['width']),
        height: Number(i['height']),
        ppiX: Number(i['ppiX']) * userUnit(page),
        ppiY: Number(i['ppiY']) * userUnit(page),
      };
    }),
    imagesTruncated: r['imagesTruncated'] === true,
  };
}

function numberOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
