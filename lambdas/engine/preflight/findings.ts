/**
 * Findings: what a check observed, turned into what a customer reads. Checks
 * emit one raw observation per page or object; here they are grouped per check
 * (and per subject, such as one font) so a 500-page file with no TrimBox yields
 * one finding "500 pages have no TrimBox (pages 1–500)…", not 500.
 */
import type { CheckVerdict } from '../../domain/model';
import type { Rect } from '../core/page-boxes';

export type Severity = 'error' | 'warn' | 'info';

/** One observation of a check (`Id`: the check ids of the caller, preflight's CheckId). */
export interface Observation<Id extends string = string> {
  checkId: Id;
  page: number | null;
  /** Findings of one check are grouped per subject (a font name); null groups everything. */
  subject?: string | null;
  measured?: unknown;
  required?: unknown;
  bbox?: Rect | null;
  /** False when no fix can help in this case; defaults to the catalogue's answer. */
  fixable?: boolean;
  /** The fix for this case when it is not the check's usual one (bleed the page has no room for: bleed.mirror). */
  fixId?: string;
  /** Sorts observations within a group: the most severe (lowest) is reported as `measured`. */
  rank?: number;
}

/** One place a finding was observed: a box in the default user space of a page. */
export interface FindingLocation {
  page: number;
  bbox: Rect;
}

/**
 * How many locations a finding lists on one page and in all. Proofs are made
 * of the first 10 pages with located findings (previews/proof.ts), so a page
 * that gets one is among the first 10 located pages of every finding on it:
 * 10 × 20 = 200 keeps every box a proof can show. More than 20 frames of one
 * finding on a page no longer tell a reader anything a count does not. The cap keeps a 500-page
 * file's report small: a location is 50–80 bytes of JSON, so at most about
 * 16 KB a finding (measured on a generated 500-page file with four findings
 * on every page: 40 KB more in a 371 KB report, where all 6,100 would add
 * about 300 KB).
 */
export const MAX_LOCATIONS_PER_PAGE = 20;
export const MAX_LOCATIONS = 200;

export interface Finding<Id extends string = string> {
  checkId: Id;
  severity: Severity;
  message: string;
  /** The first page concerned; null for the document as a whole. */
  page: number | null;
  /** Every page concerned, when more than one. */
  pages?: number[];
  /** How many observations this finding stands for. */
  count: number;
  /** The worst hit's box. */
  bbox: Rect | null;
  /** The page `bbox` is on; null when there is no bbox. */
  bboxPage: number | null;
  measured: unknown;
  required: unknown;
  /**
   * `fixId`: the fix for the worst case that has one; `fixIds`, present when the
   * cases need different fixes, lists them all (recommendedFixes names each).
   */
  fix: { available: boolean; fixId: string | null; fixIds?: string[] };
  /**
   * Every located observation, each box once: in page order, on a page the
   * worst first; at most MAX_LOCATIONS_PER_PAGE a page and MAX_LOCATIONS in
   * all (the earliest pages kept). Absent when nothing is located.
   */
  locations?: FindingLocation[];
  /** Set when the caps left located observations out of `locations`. */
  locationsTruncated?: boolean;
}

/** Writes the customer-facing sentence for a group of observations of one check. */
export type MessageWriter = (group: GroupView) => string;

export interface GroupView {
  observations: Observation[];
  /** The observation with the lowest rank (or the first). */
  worst: Observation;
  pages: number[];
  /** "page 3", "pages 1–4, 7". */
  pagesText: string;
  count: number;
  subject: string | null;
}

/**
 * Groups observations into findings (per check and subject; checks whose
 * severity is off are dropped), listed errors first, then warnings, then
 * infos; within a severity in the order of `checkSequence`, then by page.
 */
export function groupFindings<Id extends string>(
  observations: Observation<Id>[],
  severityOf: (checkId: Id) => Severity | 'off',
  messageOf: (checkId: Id) => MessageWriter,
  fixOf: (checkId: Id) => string | null,
  checkSequence: readonly Id[],
): Finding<Id>[] {
  const groups = new Map<string, Observation<Id>[]>();
  for (const o of observations) {
    if (severityOf(o.checkId) === 'off') continue;
    const key = `${o.checkId}\u0000${o.subject ?? ''}`;
    const list = groups.get(key) ?? [];
    list.push(o);
    groups.set(key, list);
  }
  const findings: Finding<Id>[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const worst = group.reduce((a, b) => (rankOf(b) < rankOf(a) ? b : a), first);
    const pages = [...new Set(group.map((o) => o.page).filter((p): p is number => p !== null))].sort((a, b) => a - b);
    const view: GroupView = { observations: group, worst, pages, pagesText: pagesText(pages), count: group.length, subject: first.subject ?? null };
    const fixable = group.filter((o) => o.fixable !== false);
    const fixOfCase = (o: Observation<Id>): string | null => o.fixId ?? fixOf(o.checkId);
    const fixIds = [...new Set(fixable.map(fixOfCase).filter((id): id is string => id !== null))];
    const worstFixable = fixable.reduce<Observation<Id> | undefined>((a, b) => (!a || rankOf(b) < rankOf(a) ? b : a), undefined);
    const fixId = (worstFixable && fixOfCase(worstFixable)) ?? fixOf(first.checkId);
    const bbox = worst.bbox ?? null;
    const finding: Finding<Id> = {
      checkId: first.checkId,
      severity: severityOf(first.checkId) as Severity,
      message: messageOf(first.checkId)(view),
      page: pages[0] ?? null,
      count: group.length,
      bbox,
      bboxPage: bbox ? worst.page : null,
      measured: worst.measured ?? null,
      required: worst.required ?? null,
      fix: { available: fixIds.length > 0, fixId, ...(fixIds.length > 1 ? { fixIds } : {}) },
    };
    if (pages.length > 1) finding.pages = pages;
    const { locations, truncated } = locationsOf(group);
    if (locations.length > 0) finding.locations = locations;
    if (truncated) finding.locationsTruncated = true;
    findings.push(finding);
  }
  const sevRank: Record<Severity, number> = { error: 0, warn: 1, info: 2 };
  return findings.sort(
    (a, b) => sevRank[a.severity] - sevRank[b.severity] || checkSequence.indexOf(a.checkId) - checkSequence.indexOf(b.checkId) || (a.page ?? 0) - (b.page ?? 0),
  );
}

const rankOf = (o: Observation): number => o.rank ?? Infinity;
const byRank = (a: Observation, b: Observation): number => Math.sign(rankOf(a) - rankOf(b)) || 0;

/** The located observations of a group as FindingLocation.locations describes them, and whether the caps cut any. */
function locationsOf(group: Observation[]): { locations: FindingLocation[]; truncated: boolean } {
  const byPage = new Map<number, Observation[]>();
  for (const o of group) {
    if (o.page === null || !o.bbox) continue;
    const list = byPage.get(o.page) ?? [];
    list.push(o);
    byPage.set(o.page, list);
  }
  const locations: FindingLocation[] = [];
  let truncated = false;
  for (const page of [...byPage.keys()].sort((a, b) => a - b)) {
    // Worst first (a stable sort keeps content order among equals), so a duplicate keeps its best rank's place.
    const seen = new Set<string>();
    const boxes: Rect[] = [];
    for (const o of [...byPage.get(page)!].sort(byRank)) {
      const key = o.bbox!.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      boxes.push(o.bbox!);
    }
    const room = Math.min(MAX_LOCATIONS_PER_PAGE, MAX_LOCATIONS - locations.length);
    if (boxes.length > room) truncated = true;
    for (const bbox of boxes.slice(0, room)) locations.push({ page, bbox });
  }
  return { locations, truncated };
}

export function verdictOf(findings: Finding[]): CheckVerdict {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  if (findings.some((f) => f.severity === 'warn')) return 'warn';
  return 'pass';
}

export function summarise(findings: Finding[], pages: number): { errors: number; warnings: number; infos: number; pages: number } {
  return {
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warn').length,
    infos: findings.filter((f) => f.severity === 'info').length,
    pages,
  };
}

/** Fix ids of findings a fix can resolve, in finding order, once each. */
export function recommendedFixes(findings: Finding[]): string[] {
  const out: string[] = [];
  for (const f of findings) {
    if (!f.fix.available) continue;
    for (const id of f.fix.fixIds ?? (f.fix.fixId ? [f.fix.fixId] : [])) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** "page 3", "pages 1–4, 7" (en dash for ranges). */
export function pagesText(pages: number[]): string {
  if (pages.length === 0) return '';
  const parts: string[] = [];
  let start = pages[0]!;
  let prev = start;
  for (const p of [...pages.slice(1), Number.NaN]) {
    if (p === prev + 1) {
      prev = p;
      continue;
    }
    parts.push(start === prev ? `${start}` : `${start}–${prev}`);
    start = p;
    prev = p;
  }
  return `${pages.length === 1 ? 'page' : 'pages'} ${parts.join(', ')}`;
}

/** "1 page" / "3 pages". */
export const plural = (n: number, word: string, pluralWord = `${word}s`): string => `${n} ${n === 1 ? word : pluralWord}`;

/** A number for a sentence: at most one decimal, no trailing ".0". */
export const num = (v: number): string => String(Math.round(v * 10) / 10);
