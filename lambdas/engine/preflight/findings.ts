/**
 * Findings: what a check observed, turned into what a customer reads. Checks
 * emit one raw observation per page or object; here they are grouped per check
 * (and per subject, such as one font) so a 500-page file with no TrimBox yields
 * one finding "500 pages have no TrimBox (pages 1–500)…", not 500.
 */
import type { CheckVerdict } from '../../domain/model';
import type { Rect } from '../core/page-boxes';

export type Severity = 'error' | 'warn' | 'info';

/** One observation of a check. */
export interface Observation {
  checkId: string;
  page: number | null;
  /** Findings of one check are grouped per subject (a font name); null groups everything. */
  subject?: string | null;
  measured?: unknown;
  required?: unknown;
  bbox?: Rect | null;
  /** False when the check's fix cannot help in this case; defaults to the catalogue's answer. */
  fixable?: boolean;
  /** Sorts observations within a group: the most severe (lowest) is reported as `measured`. */
  rank?: number;
}

export interface Finding {
  checkId: string;
  severity: Severity;
  message: string;
  /** The first page concerned; null for the document as a whole. */
  page: number | null;
  /** Every page concerned, when more than one. */
  pages?: number[];
  /** How many observations this finding stands for. */
  count: number;
  bbox: Rect | null;
  measured: unknown;
  required: unknown;
  fix: { available: boolean; fixId: string | null };
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

export function groupFindings(
  observations: Observation[],
  severityOf: (checkId: string) => Severity | 'off',
  messageOf: (checkId: string) => MessageWriter,
  fixOf: (checkId: string) => string | null,
  checkOrder: string[],
): Finding[] {
  const groups = new Map<string, Observation[]>();
  for (const o of observations) {
    if (severityOf(o.checkId) === 'off') continue;
    const key = `${o.checkId}\u0000${o.subject ?? ''}`;
    const list = groups.get(key) ?? [];
    list.push(o);
    groups.set(key, list);
  }
  const findings: Finding[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const worst = group.reduce((a, b) => ((b.rank ?? Infinity) < (a.rank ?? Infinity) ? b : a), first);
    const pages = [...new Set(group.map((o) => o.page).filter((p): p is number => p !== null))].sort((a, b) => a - b);
    const view: GroupView = { observations: group, worst, pages, pagesText: pagesText(pages), count: group.length, subject: first.subject ?? null };
    const fixId = fixOf(first.checkId);
    const finding: Finding = {
      checkId: first.checkId,
      severity: severityOf(first.checkId) as Severity,
      message: messageOf(first.checkId)(view),
      page: pages[0] ?? null,
      count: group.length,
      bbox: worst.bbox ?? null,
      measured: worst.measured ?? null,
      required: worst.required ?? null,
      fix: { available: fixId !== null && group.some((o) => o.fixable !== false), fixId },
    };
    if (pages.length > 1) finding.pages = pages;
    findings.push(finding);
  }
  const sevRank: Record<Severity, number> = { error: 0, warn: 1, info: 2 };
  return findings.sort(
    (a, b) => sevRank[a.severity] - sevRank[b.severity] || checkOrder.indexOf(a.checkId) - checkOrder.indexOf(b.checkId) || (a.page ?? 0) - (b.page ?? 0),
  );
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
  for (const f of findings) if (f.fix.available && f.fix.fixId && !out.includes(f.fix.fixId)) out.push(f.fix.fixId);
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
