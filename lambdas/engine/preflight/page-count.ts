/**
 * The ordered page count (context.pageCount), judged the same way for PDFs and
 * image files.
 */
import { plural, type Observation } from './findings';
import type { PreflightSettings } from './settings';

export function pageCountObservations(count: number, settings: PreflightSettings): Observation<'document.page-count'>[] {
  const pc = settings.thresholds('document.page-count');
  if (!pc) return [];
  const min = pc.min === undefined ? undefined : Number(pc.min);
  const max = pc.max === undefined ? undefined : Number(pc.max);
  if ((min !== undefined && count < min) || (max !== undefined && count > max)) {
    return [{ checkId: 'document.page-count', page: null, measured: { pages: count }, required: { min: min ?? null, max: max ?? null } }];
  }
  return [];
}

export function pageCountMessage(worst: Observation, what: string): string {
  const m = worst.measured as { pages: number };
  const r = worst.required as { min: number | null; max: number | null };
  const allowed =
    r.min !== null && r.max !== null ? `${r.min} to ${r.max} pages` : r.min !== null ? `at least ${plural(r.min, 'page')}` : `at most ${plural(r.max ?? 0, 'page')}`;
  return `${what} has ${plural(m.pages, 'page')}; the order allows ${allowed}.`;
}
