/**
 * The figures of `npm run bench:autofix` from per-file outcomes (pure, so the
 * counting rules are unit-tested: test/unit/bench/autofix-summary.test.ts).
 *
 * - Fixable findings gone: of the findings preflight reported with a fix
 *   available, the share whose check no longer reports anything after autofix
 *   + repreflight. A file whose fix failed (crash, timeout, refusal) keeps all
 *   its fixable findings: they count as not gone.
 * - New fixable findings: findings with a fix available after autofix whose
 *   check reported nothing before (a page given a TrimBox that then lacks
 *   bleed, say): what the fix left for a customer to fix again. Measured
 *   against the fixed count (gone); the bar is 2 %.
 * - Disagreements: a finding still there after autofix whose fix ran and
 *   answered that there was nothing to change: the check and its fix judge by
 *   different definitions.
 * - Damage: a fixed file that qpdf --check rates worse than its original
 *   (a worse exit status, or the same status with more warning and error
 *   lines), whose extracted
 *   text shrank (beyond what layers.flatten removes from hidden layers while
 *   printing the same), or — when every applied fix is one that must not change
 *   appearance or changes only the bleed — that prints differently inside the
 *   TrimBox (compared at 36 dpi; a difference there is confirmed at 150 dpi,
 *   see autofix-child.ts appearanceOf); and any file
 *   where autofix itself crashed or ran out of time.
 * - PDF/A: of the conformance corpus's expected-fail files, the failures in
 *   pdfa.prepare's scope (metadata and structure) that are gone after it, and
 *   the files whose every failure was in scope that validate compliant after.
 */
import type { FindingCount } from './autofix-child';
import type { PageDifference } from '../../support/appearance-compare';
import { qpdfWorse, type QpdfCheck } from './qpdf-check';

export type { QpdfCheck } from './qpdf-check';

export interface FixFileOutcome {
  file: string;
  status: 'done' | 'refused' | 'crash' | 'timeout';
  /** The sentence or error for refused, crash and timeout. */
  detail?: string;
  before?: FindingCount[];
  after?: FindingCount[] | null;
  changed?: boolean;
  applied?: { fixId: string; count: number }[];
  /** Fixes that never changed anything, with their reasons (autofix's totals). */
  skipped?: { fixId: string; reason: string }[];
  /** Rounds autofix made. */
  rounds?: number;
  text?: { before: number; after: number } | null;
  appearance?: PageDifference[] | null;
  /** The original with layers.flatten alone (see autofix-child.ts), when it was measured. */
  layersOnly?: { text: number; appearance: PageDifference[] | null } | null;
  qpdf?: { before: QpdfCheck; after: QpdfCheck } | null;
}

export interface FixSummary {
  files: number;
  refused: number;
  crashes: number;
  timeouts: number;
  changed: number;
  fixable: number;
  gone: number;
  /** Fixable findings after the fix whose check reported nothing before, by check id, most first. */
  appeared: { checkId: string; count: number; files: string[] }[];
  appearedCount: number;
  /** Findings still there whose fix ran and said there was nothing to change, by check and fix. */
  disagreements: { checkId: string; fixId: string; count: number; files: string[] }[];
  /** Files by how many rounds autofix made (index 1 = one round). */
  rounds: number[];
  /** Fixable findings still there after the fix, by check id, most first. */
  remaining: { checkId: string; count: number; files: string[] }[];
  applied: { fixId: string; files: number }[];
  damaged: { file: string; why: string }[];
}

/** Why a fixed file counts as damaged, or null. */
export function damageOf(o: FixFileOutcome): string | null {
  if (o.status === 'crash' || o.status === 'timeout') return `autofix ${o.status}: ${o.detail ?? ''}`.trim();
  if (o.status !== 'done' || !o.changed) return null;
  const q = o.qpdf;
  if (q && qpdfWorse(q.before, q.after)) return `qpdf --check: ${q.before.issues} issues (exit ${q.before.status}) before, ${q.after.issues} (exit ${q.after.status}) after`;
  if (q && q.before.status !== null && q.after.status === null) return 'qpdf could not check the fixed file';
  if (o.text && o.text.after < 0) return 'the fixed file\'s text could not be read';
  const moved = movedPages(o.appearance ?? []);
  if (moved.length > 0) return `prints differently inside the TrimBox on page ${moved.map((d) => d.page).join(', ')} (RMSE ${Math.max(...moved.map((d) => d.rmse)).toFixed(3)})`;
  // layers.flatten removes the content of hidden layers, text included, by design: text that
  // goes while every page prints exactly as before was never visible (pdfjs extracts it all the same).
  const flattened = (o.applied ?? []).some((a) => a.fixId === 'layers.flatten');
  const hiddenTextRemoved = flattened && (o.appearance ?? []).length > 0;
  if (!o.text || o.text.after >= o.text.before || hiddenTextRemoved) return null;
  // Beside a fix that may change appearance, layers.flatten alone on the original shows what it removes: the
  // text that goes while that prints exactly as before is hidden, and only the rest must stay.
  const alone = flattened ? o.layersOnly : null;
  const aloneSame = alone && alone.text >= 0 && (alone.appearance ?? []).length > 0 && movedPages(alone.appearance!).length === 0;
  if (aloneSame && o.text.after >= Math.min(o.text.before, alone.text)) return null;
  return `extractable text shrank from ${o.text.before} to ${o.text.after} characters${aloneSame ? ` (${alone.text} without the hidden layers)` : ''}`;
}

/** Pages that print visibly differently: the finished area changed size, or its pixels moved beyond rounding. */
export const movedPages = (diffs: readonly PageDifference[]) => diffs.filter((d) => d.sizeChanged || d.rmse >= 0.01 || d.changedShare >= 0.001);

export function summariseFixes(outcomes: readonly FixFileOutcome[]): FixSummary {
  let fixable = 0;
  let gone = 0;
  const remaining = new Map<string, { count: number; files: string[] }>();
  const applied = new Map<string, number>();
  const appeared = new Map<string, { count: number; files: string[] }>();
  const disagreements = new Map<string, { checkId: string; fixId: string; count: number; files: string[] }>();
  const rounds: number[] = [];
  const tally = <T extends { count: number; files: string[] }>(map: Map<string, T>, key: string, fresh: () => T, file: string) => {
    const r = map.get(key) ?? fresh();
    r.count++;
    if (r.files.length < 5 && !r.files.includes(file)) r.files.push(file);
    map.set(key, r);
  };
  for (const o of outcomes) {
    if (o.status === 'done' && o.changed && o.rounds) rounds[o.rounds] = (rounds[o.rounds] ?? 0) + 1;
    const reportedBefore = new Set((o.before ?? []).map((f) => f.checkId));
    for (const f of o.after ?? []) if (f.fixId !== null && !reportedBefore.has(f.checkId)) tally(appeared, f.checkId, () => ({ count: 0, files: [] }), o.file);
    const saidNothingToDo = new Set((o.skipped ?? []).filter((s) => s.reason.startsWith('Nothing to change')).map((s) => s.fixId));
    const stillThere = o.after ?? (o.status === 'done' && !o.changed ? (o.before ?? []) : []);
    for (const f of stillThere) {
      if (f.fixId !== null && saidNothingToDo.has(f.fixId)) tally(disagreements, `${f.checkId} ${f.fixId}`, () => ({ checkId: f.checkId, fixId: f.fixId!, count: 0, files: [] }), o.file);
    }
    const before = (o.before ?? []).filter((f) => f.fixId !== null);
    const after = new Set((o.after ?? []).map((f) => f.checkId));
    for (const f of before) {
      fixable++;
      // Nothing changed (or the fix failed): the finding is still there.
      const stillThere = o.status !== 'done' || !o.changed || after.has(f.checkId);
      if (!stillThere) {
        gone++;
        continue;
      }
      const r = remaining.get(f.checkId) ?? { count: 0, files: [] };
      r.count++;
      if (r.files.length < 5 && !r.files.includes(o.file)) r.files.push(o.file);
      remaining.set(f.checkId, r);
    }
    for (const a of o.applied ?? []) applied.set(a.fixId, (applied.get(a.fixId) ?? 0) + 1);
  }
  return {
    files: outcomes.length,
    refused: outcomes.filter((o) => o.status === 'refused').length,
    crashes: outcomes.filter((o) => o.status === 'crash').length,
    timeouts: outcomes.filter((o) => o.status === 'timeout').length,
    changed: outcomes.filter((o) => o.status === 'done' && o.changed).length,
    fixable,
    gone,
    remaining: [...remaining].map(([checkId, r]) => ({ checkId, ...r })).sort((a, b) => b.count - a.count),
    appeared: [...appeared].map(([checkId, r]) => ({ checkId, ...r })).sort((a, b) => b.count - a.count),
    appearedCount: [...appeared.values()].reduce((n, r) => n + r.count, 0),
    disagreements: [...disagreements.values()].sort((a, b) => b.count - a.count),
    rounds: Array.from(rounds, (n) => n ?? 0),
    applied: [...applied].map(([fixId, files]) => ({ fixId, files })).sort((a, b) => b.files - a.files),
    damaged: outcomes.flatMap((o) => {
      const why = damageOf(o);
      return why ? [{ file: o.file, why }] : [];
    }),
  };
}

/**
 * Validation rules in pdfa.prepare's scope: metadata and file structure, the
 * output intent, forbidden actions, annotation flags and appearances.
 * Everything else (fonts, colour in content, transparency…) is content the
 * fix does not touch.
 */
const PDFA_PREPARE_SCOPE = [
  'pdfa.file.header',
  'pdfa.trailer.',
  'pdfa.catalog.version',
  'pdfa.output-intent.',
  'pdfa.metadata.',
  'pdfa.actions.',
  'pdfa.annotations.flags',
  'pdfa.annotations.appearance',
  'pdfa.forms.need-appearances',
];

export const inPdfaPrepareScope = (ruleId: string): boolean => PDFA_PREPARE_SCOPE.some((p) => (p.endsWith('.') ? ruleId.startsWith(p) : ruleId === p || ruleId.startsWith(`${p}-`)));

export interface PdfaFileOutcome {
  file: string;
  profile: string;
  status: 'done' | 'skipped' | 'refused' | 'crash' | 'timeout';
  detail?: string;
  before?: string[];
  after?: string[] | null;
  compliantAfter?: boolean | null;
}

export interface PdfaSummary {
  files: number;
  skipped: number;
  failed: number;
  inScopeFailures: number;
  inScopeGone: number;
  onlyInScopeFiles: number;
  onlyInScopeCompliant: number;
  /** In-scope rules still failing after the fix, most first. */
  remaining: { ruleId: string; count: number }[];
  /** Files where the fix made a rule fail that passed before. */
  regressions: { file: string; ruleIds: string[] }[];
}

export function summarisePdfa(outcomes: readonly PdfaFileOutcome[]): PdfaSummary {
  let inScopeFailures = 0;
  let inScopeGone = 0;
  let onlyInScopeFiles = 0;
  let onlyInScopeCompliant = 0;
  const remaining = new Map<string, number>();
  const regressions: PdfaSummary['regressions'] = [];
  for (const o of outcomes) {
    if (o.status !== 'done' || !o.before) continue;
    const inScope = o.before.filter(inPdfaPrepareScope);
    const after = new Set(o.after ?? o.before);
    inScopeFailures += inScope.length;
    for (const r of inScope) {
      if (after.has(r)) remaining.set(r, (remaining.get(r) ?? 0) + 1);
      else inScopeGone++;
    }
    if (o.before.length > 0 && inScope.length === o.before.length) {
      onlyInScopeFiles++;
      if (o.compliantAfter) onlyInScopeCompliant++;
    }
    const newly = [...after].filter((r) => !o.before!.includes(r));
    if (newly.length > 0) regressions.push({ file: o.file, ruleIds: newly });
  }
  return {
    files: outcomes.length,
    skipped: outcomes.filter((o) => o.status === 'skipped').length,
    failed: outcomes.filter((o) => o.status === 'crash' || o.status === 'timeout' || o.status === 'refused').length,
    inScopeFailures,
    inScopeGone,
    onlyInScopeFiles,
    onlyInScopeCompliant,
    remaining: [...remaining].map(([ruleId, count]) => ({ ruleId, count })).sort((a, b) => b.count - a.count),
    regressions,
  };
}
