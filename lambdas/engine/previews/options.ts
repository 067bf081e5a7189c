/**
 * Preview parameters (API.md §5) read leniently into one settled set of options:
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
/** Pages rendered at most per step (also the default selection: the first 50). */
export const MAX_PAGES = 50;
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
 * MAX_PAGES. Requested pages beyond the document (as ranges) and beyond the
 * limit are returned separately so the caller can report them.
 */
export function selectPages(selection: string | null, pageCount: number): { pages: number[]; missing: { from: number; to: number }[]; overLimit: number[] } {
  const wanted = new Set<number>();
  const missing: { from: number; to: number }[] = [];
  if (selection === null) {
    for (let p = 1; p <= pageCount; p++) wanted.add(p);
  } else {
    for (const part of selection.split(',')) {
      const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
      if (!m) continue;
      const a = Number(m[1]);
      const b = m[2] === undefined ? a : Number(m[2]);
      const [from, to] = a <= b ? [a, b] : [b, a];
      for (let p = Math.max(1, from); p <= Math.min(to, pageCount); p++) wanted.add(p);
      if (to > pageCount) missing.push({ from: Math.max(from, pageCount + 1), to });
    }
  }
  const inDoc = [...wanted].sort((x, y) => x - y);
  // The default selection silently stops at the limit; an explicit one reports the rest.
  return { pages: inDoc.slice(0, MAX_PAGES), missing, overLimit: selection === null ? [] : inDoc.slice(MAX_PAGES) };
}

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
