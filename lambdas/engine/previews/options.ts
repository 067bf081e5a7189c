/**
 * Preview parameters (docs/api.md §5) read leniently into one settled set of options:
 * anything missing or unusable falls back to its default, and what was applied
 * is returned as the step's runtimeParams.
 */

export type PreviewFormat = 'jpeg' | 'png' | 'webp';

export interface PreviewOptions {
  format: PreviewFormat;
  /** Used when no width/height is given. */
  dpi: number;
  /** Fit inside this box (aspect kept); either may be absent. */
  width: number | null;
  height: number | null;
  /** The page selection as written ("1-3,7"), or null for the default. */
  pages: string | null;
  quality: number;
  /** A CSS colour; `transparent` keeps alpha in PNG and WebP. */
  background: string;
  thumbnail: boolean;
}

export const DEFAULT_DPI = 72;
export const MAX_DPI = 600;
/** Without a `pages` selection, the first this many pages are rendered. */
export const DEFAULT_PAGES = 50;
/**
 * An explicit selection renders at most this many pages per step. In the cloud
 * they are rendered in batches in parallel; the step record lists every image,
 * and 500 artifacts keep it well inside a DynamoDB item (about 175 KB).
 */
export const MAX_SELECTED_PAGES = 500;
/** A page whose image would exceed this many pixels fails alone. */
export const MAX_PIXELS_PER_PAGE = 50_000_000;
/** Longest side of any output image (WebP cannot exceed 16383). */
export const MAX_SIDE: Record<PreviewFormat, number> = { jpeg: 30_000, png: 30_000, webp: 16_383 };
export const THUMBNAIL_PX = 256;
export const DEFAULT_QUALITY = 85;

export const MIME_TYPES: Record<PreviewFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
export const EXTENSIONS: Record<PreviewFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

export function readOptions(params: Record<string, unknown>): PreviewOptions {
  const format = params.format === 'png' || params.format === 'webp' || params.format === 'jpeg' ? params.format : 'jpeg';
  const dpi = Math.min(num(params.dpi) ?? DEFAULT_DPI, MAX_DPI);
  const width = num(params.width);
  const height = num(params.height);
  const quality = num(params.quality);
  const background = typeof params.background === 'string' && params.background.trim() ? params.background.trim() : 'white';
  return {
    format,
    dpi,
    width: width === null ? null : Math.round(width),
    height: height === null ? null : Math.round(height),
    pages: typeof params.pages === 'string' && params.pages.trim() ? params.pages : null,
    quality: quality === null ? DEFAULT_QUALITY : Math.min(100, Math.max(1, Math.round(quality))),
    // JPEG has no alpha: a transparent background would turn black.
    background: format === 'jpeg' && background === 'transparent' ? 'white' : background,
    thumbnail: params.thumbnail !== false,
  };
}

/**
 * Pages to render from a "1-3,7" selection: ascending, unique, at most
 * MAX_SELECTED_PAGES (DEFAULT_PAGES without a selection). Requested pages
 * beyond the document (as ranges) and beyond the limit are returned separately
 * so the caller can report them.
 */
export interface PageRange {
  from: number;
  to: number;
}

export interface PageSelection {
  pages: number[];
  /** Requested ranges past the document's last page. */
  missing: PageRange[];
  /** Requested pages in the document past the limit, as ranges. */
  overLimit: PageRange[];
}

export function selectPages(selection: string | null, pageCount: number): PageSelection {
  if (selection === null) return { pages: range(1, Math.min(pageCount, DEFAULT_PAGES)), missing: [], overLimit: [] };
  const inDoc: PageRange[] = [];
  const missing: PageRange[] = [];
  for (const part of selection.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    const [from, to] = a <= b ? [a, b] : [b, a];
    if (Math.max(1, from) <= Math.min(to, pageCount)) inDoc.push({ from: Math.max(1, from), to: Math.min(to, pageCount) });
    if (to > pageCount) missing.push({ from: Math.max(from, pageCount + 1), to });
  }
  // Ranges, not page lists, until the limit is applied: "1-99999999" on a huge document costs no more than "1-501".
  const pages: number[] = [];
  const overLimit: PageRange[] = [];
  for (const r of mergeRanges(inDoc)) {
    const room = MAX_SELECTED_PAGES - pages.length;
    const take = Math.min(room, r.to - r.from + 1);
    pages.push(...range(r.from, r.from + take - 1));
    if (take < r.to - r.from + 1) overLimit.push({ from: r.from + take, to: r.to });
  }
  return { pages, missing, overLimit };
}

/** Sorted, with overlapping and touching ranges joined. */
function mergeRanges(ranges: PageRange[]): PageRange[] {
  const merged: PageRange[] = [];
  for (const r of [...ranges].sort((x, y) => x.from - y.from)) {
    const last = merged[merged.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ ...r });
  }
  return merged;
}

/** The failure notes for the requested pages a selection leaves out: past the end, or past the limit. */
export function selectionFailures(sel: PageSelection, pageCount: number, noun: 'document' | 'image'): { page: number; reason: string }[] {
  const pagesText = (r: PageRange): string => (r.from === r.to ? `page ${r.from}` : `pages ${r.from}–${r.to}`);
  return [
    ...sel.missing.map((r) => ({
      page: r.from,
      reason: `The ${noun} has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}; ${pagesText(r)} ${r.from === r.to ? 'does' : 'do'} not exist.`,
    })),
    ...sel.overLimit.map((r) => ({
      page: r.from,
      reason: `Previews are limited to ${MAX_SELECTED_PAGES} pages per step; ${pagesText(r)} ${r.from === r.to ? 'was' : 'were'} not rendered: request ${r.from === r.to ? 'it' : 'them'} in another step.`,
    })),
  ];
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Pixel size for a page of `w` × `h` points at the options' dpi, or fitted into width/height. */
export function targetSize(wPt: number, hPt: number, o: Pick<PreviewOptions, 'dpi' | 'width' | 'height'>): { width: number; height: number; scale: number } {
  let scale: number;
  if (o.width !== null || o.height !== null) {
    const sx = o.width !== null ? o.width / wPt : Infinity;
    const sy = o.height !== null ? o.height / hPt : Infinity;
    scale = Math.min(sx, sy);
  } else {
    scale = o.dpi / 72;
  }
  return { width: Math.max(1, Math.round(wPt * scale)), height: Math.max(1, Math.round(hPt * scale)), scale };
}

/** Why a page cannot be rendered at this size, or null when it can. */
export function sizeProblem(width: number, height: number, format: PreviewFormat): string | null {
  if (width * height > MAX_PIXELS_PER_PAGE) {
    return `The page would be ${width} × ${height} px (${Math.round((width * height) / 1e6)} megapixels), above the limit of ${MAX_PIXELS_PER_PAGE / 1e6} megapixels; request a lower dpi or a width.`;
  }
  if (Math.max(width, height) > MAX_SIDE[format]) {
    return `The page would be ${width} × ${height} px, wider than ${format.toUpperCase()} allows (${MAX_SIDE[format]} px per side); request a lower dpi, a width, or another format.`;
  }
  return null;
}
