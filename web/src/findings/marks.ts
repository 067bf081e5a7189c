/**
 * Which findings are marked on a page, and where, framed as the proof images frame them
 * (lambdas/engine/previews/proof.ts): at every box a finding's `locations` list on the page, else
 * at its worst hit's `bbox` when that is on the page. A page a finding concerns where the report
 * does not say where (a page-level finding, or one the location caps cut) gets its numbered badge
 * without a frame; unlike the proofs, findings located nowhere get that badge too, since the
 * console shows every page.
 */
import type { Rect } from './geometry';
import type { ReportFinding } from './report';
import type { Severity } from './severity';

export interface PageMark {
  /** The finding's number: its place in the report's list, from 1. */
  number: number;
  severity: Severity;
  /** Empty when the finding's spot on this page is not known. */
  boxes: Rect[];
}

/** The pages a finding concerns, ascending. */
export function pagesOf(f: ReportFinding): number[] {
  if (f.pages && f.pages.length > 0) return f.pages;
  return f.page !== null ? [f.page] : [];
}

export function boxesOn(f: ReportFinding, page: number): Rect[] {
  const listed = (f.locations ?? []).filter((l) => l.page === page).map((l) => l.bbox);
  if (listed.length > 0) return listed;
  return f.bbox && f.bboxPage === page ? [f.bbox] : [];
}

/** The page to show when a finding is chosen: its first page with a box, else its first page. */
export function pageToShow(f: ReportFinding): number | null {
  return pagesOf(f).find((p) => boxesOn(f, p).length > 0) ?? pagesOf(f)[0] ?? null;
}

export function marksOnPage(findings: readonly ReportFinding[], page: number): PageMark[] {
  return findings.flatMap((f, i) => (pagesOf(f).includes(page) ? [{ number: i + 1, severity: f.severity, boxes: boxesOn(f, page) }] : []));
}
