/**
 * The figures of the previews agreement bench, judged against several
 * references at once rather than against poppler alone: pdftoppm (poppler),
 * `mutool draw` (MuPDF) and Ghostscript render page 1 of every file, and a
 * renderer of ours is compared with each reference that rendered it.
 *
 * - Rendered share: of the pages at least two references render (a page
 *   that one renderer alone can draw may not be drawable), how many ours
 *   delivered.
 * - Mean RMSE to the closest reference (0–1 scale, previews-image-compare.ts):
 *   renderers disagree with each other on antialiasing, font substitution and
 *   colour management; the closest reference is the one ours agrees with on
 *   those choices.
 * - Outliers: pages further from every reference than the references are
 *   from each other, and further than 0.03 (max(0.03, the largest distance
 *   between two references on that page)): a page where ours is not one more
 *   reasonable rendering, but wrong.
 */
import type { OurStatus } from './previews-agreement-summary';

export type ReferenceId = 'poppler' | 'MuPDF' | 'Ghostscript';
export type RendererId = 'pdfium' | 'pdfjs';

export const OUTLIER_FLOOR = 0.03;
export const RENDERED_SHARE_TARGET = 0.99;
export const MEAN_CLOSEST_RMSE_TARGET = 0.02;
export const OUTLIER_SHARE_TARGET = 0.01;

export interface RendererOutcome {
  status: OurStatus;
  reason?: string;
  ms: number;
  /** RMSE against each reference that rendered the page (when ours did). */
  rmse?: Partial<Record<ReferenceId, number>>;
}

export interface ConsensusFileResult {
  file: string;
  /** The references that rendered page 1. */
  referencesRendered: ReferenceId[];
  /** The largest RMSE between two references that rendered it; null with fewer than two. */
  referenceSpread: number | null;
  renderers: Partial<Record<RendererId, RendererOutcome>>;
}

export interface RendererSummary {
  /** Pages at least two references rendered. */
  eligible: number;
  rendered: number;
  renderedShare: number;
  /** Rendered eligible pages compared with at least one reference. */
  compared: number;
  meanClosestRmse: number;
  medianClosestRmse: number;
  outliers: { file: string; closest: number; bound: number }[];
  outlierShare: number;
  /** Eligible pages not rendered, by status and first words of the reason. */
  failureReasons: { key: string; count: number; files: string[] }[];
  /** Median time per file, ms. */
  medianMs: number;
}

export function closestRmse(o: RendererOutcome | undefined): number | null {
  const values = Object.values(o?.rmse ?? {}).filter((v): v is number => typeof v === 'number');
  return values.length ? Math.min(...values) : null;
}

export function outlierBound(r: Pick<ConsensusFileResult, 'referenceSpread'>): number {
  return Math.max(OUTLIER_FLOOR, r.referenceSpread ?? 0);
}

/** The figures of one renderer over the results (files without it are left out). */
export function summarizeRenderer(results: readonly ConsensusFileResult[], id: RendererId): RendererSummary {
  const eligible = results.filter((r) => r.referencesRendered.length >= 2 && r.renderers[id]);
  const rendered = eligible.filter((r) => r.renderers[id]!.status === 'rendered');
  const withDistance = rendered.map((r) => ({ r, closest: closestRmse(r.renderers[id]) })).filter((x): x is { r: ConsensusFileResult; closest: number } => x.closest !== null);
  const distances = withDistance.map((x) => x.closest);
  const outliers = withDistance.filter((x) => x.closest > outlierBound(x.r)).map((x) => ({ file: x.r.file, closest: x.closest, bound: outlierBound(x.r) })).sort((a, b) => b.closest - a.closest);
  const reasons = new Map<string, string[]>();
  for (const r of eligible) {
    const o = r.renderers[id]!;
    if (o.status === 'rendered') continue;
    const key = `${o.status}: ${(o.reason ?? '').split(/[:;.]/)[0]!.trim().slice(0, 80)}`;
    reasons.set(key, [...(reasons.get(key) ?? []), r.file]);
  }
  return {
    eligible: eligible.length,
    rendered: rendered.length,
    renderedShare: share(rendered.length, eligible.length),
    compared: withDistance.length,
    meanClosestRmse: distances.length ? distances.reduce((a, b) => a + b, 0) / distances.length : NaN,
    medianClosestRmse: median(distances),
    outliers,
    outlierShare: share(outliers.length, withDistance.length),
    failureReasons: [...reasons].map(([key, files]) => ({ key, count: files.length, files })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    medianMs: median(results.map((r) => r.renderers[id]?.ms).filter((v): v is number => v !== undefined)),
  };
}

/**
 * Production as it runs: PDFium, and pdf.js for the files PDFium refuses to
 * open. Derived from a run of both renderers (PDFium measured without its
 * fallback): a file PDFium refused takes pdf.js' outcome.
 */
export function withFallback(results: readonly ConsensusFileResult[]): ConsensusFileResult[] {
  return results.map((r) => {
    const pdfium = r.renderers.pdfium;
    const pdfjs = r.renderers.pdfjs;
    if (!pdfium || !pdfjs || !PDFIUM_REFUSED.test(pdfium.reason ?? '')) return r;
    return { ...r, renderers: { ...r.renderers, pdfium: { ...pdfjs, ms: pdfium.ms + pdfjs.ms } } };
  });
}

/** How the render pool reports a file PDFium would not open (pdfium.ts' PdfiumRefused). */
export const PDFIUM_REFUSED = /PDFium could not open the document/;

function share(part: number, whole: number): number {
  return whole === 0 ? NaN : part / whole;
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
