/**
 * The report's `evaluation` (docs/api.md §11 rule 5): our findings, the checks
 * that passed or did not apply, and the recommended fixes, in the shape clients
 * of the original hosted service read. Everything here is computed from the
 * report's own findings and sections, so the two views cannot disagree.
 */
import { findFix, fixParams, type FixParamValues } from '../fix-catalogue';
import type { CheckId } from './check-catalogue';
import { CHECKS_IN_REFERENCE, type JudgedKind } from './evaluation-checks';
import { MAX_LOCATIONS, type Finding, type Severity } from './findings';
import type { Evaluation, EvaluationAutofix, EvaluationFinding, EvaluationSeverity, EvaluationValues, FontSection, ImageSection, PageSection, PreflightReport } from './report';
import type { PreflightSettings } from './settings';

/** The report's sections, to tell whether the file has what a check judges. */
export interface JudgedSections {
  document: PreflightReport['document'];
  pages: PageSection[];
  fonts: FontSection[];
  images: ImageSection[];
  imageCount: number;
  imagesTruncated?: boolean;
}

export interface EvaluationInput {
  findings: Finding<CheckId>[];
  settings: Pick<PreflightSettings, 'severity' | 'checkSequence'>;
  /** The checks this kind of file gets: a PDF is not judged by the image-file checks, nor an image file by most PDF checks. */
  checks: readonly CheckId[];
  sections: JudgedSections;
  /** The report's recommendedFixes: what the autofix step of POST /jobs/fix applies when given no items. */
  recommendedFixes: string[];
}

const SEVERITY: Record<Severity, EvaluationSeverity> = { error: 'reject', warn: 'warn', info: 'ignore' };

/**
 * A finding that spans pages is listed once per page, for at most this many
 * pages: the cap its own location list has (findings.ts). An entry is about
 * 220 bytes of JSON: on a generated 500-page file with four findings on every
 * page, the 800 entries listed add 175 KB to a 224 KB report, where all 2,000
 * would add about 440 KB, and a 5,000-page file would add ten times that. The
 * evaluation then says `findingsTruncated`; the finding itself keeps every page.
 */
export const MAX_PAGES_PER_FINDING = MAX_LOCATIONS;

export function evaluate(input: EvaluationInput): Evaluation {
  const findings: EvaluationFinding[] = [];
  const pageSections = new Map(input.sections.pages.map((p) => [p.page, p]));
  let truncated = false;
  for (const f of input.findings) {
    const pages = f.pages ?? (f.page === null ? [] : [f.page]);
    if (pages.length > MAX_PAGES_PER_FINDING) truncated = true;
    const listed = pages.length === 0 ? [null] : pages.slice(0, MAX_PAGES_PER_FINDING);
    for (const page of listed) findings.push(entryOf(f, page, page === null ? undefined : pageSections.get(page)));
  }
  const { passed, skipped } = checkResults(input);
  const rejected = findings.filter((f) => f.severity === 'reject');
  return {
    findings,
    ...(truncated ? { findingsTruncated: true } : {}),
    passed,
    skipped,
    summary: {
      fail: rejected.length,
      warn: findings.filter((f) => f.severity === 'warn').length,
      ignored: findings.filter((f) => f.severity === 'ignore').length,
      pass: passed.length,
      skipped: skipped.length,
      autofixable: findings.filter((f) => f.autofix.available).length,
      autofixableFails: rejected.filter((f) => f.autofix.available).length,
    },
    recommendedAutofix: recommendedAutofix(input.recommendedFixes),
  };
}

/** The finding on one page (null: the document as a whole). */
function entryOf(f: Finding<CheckId>, page: number | null, pageSection: PageSection | undefined): EvaluationFinding {
  const reference = CHECKS_IN_REFERENCE[f.checkId];
  const worst = reference.values?.(f.measured, f.required) ?? {};
  // A finding keeps only its worst observation's values, so they belong on the
  // page where that was found, unless the page section holds the page's own;
  // the threshold is the same on every page.
  const onPage = pageSection && reference.measuredOnPage?.(pageSection);
  const measured = onPage ?? (page === null || page === worstPageOf(f) ? worst.measured : undefined);
  const values: EvaluationValues = {};
  if (measured) values[`measured_${measured.unit}` as const] = measured.value;
  if (worst.required) values[`required_${worst.required.unit}` as const] = worst.required.value;
  const font = fontOf(f.measured);
  return {
    sectionId: reference.section,
    ruleId: f.checkId,
    severity: SEVERITY[f.severity],
    target: reference.target,
    ...(page === null ? {} : { page }),
    ...(font === null ? {} : { font }),
    ...values,
    autofix: autofixOf(f),
    locate: { boxes: boxesOn(f, page) },
  };
}

/** The page of the finding's worst observation, when known: where its box is, or its only page. */
function worstPageOf(f: Finding): number | null {
  return f.bboxPage ?? (f.pages === undefined ? f.page : null);
}

/** The font a font or text finding names (its observations carry it as `font`). */
function fontOf(measured: unknown): string | null {
  const font = measured && typeof measured === 'object' ? (measured as { font?: unknown }).font : undefined;
  return typeof font === 'string' ? font : null;
}

/** The finding's located boxes on the page (all of them for a document-wide entry); the worst box when the location list was cut before it. */
function boxesOn(f: Finding, page: number | null): EvaluationFinding['locate']['boxes'] {
  const boxes = (f.locations ?? []).filter((l) => page === null || l.page === page).map((l) => ({ page: l.page, rect: l.bbox }));
  if (boxes.length === 0 && f.bbox && f.bboxPage !== null && (page === null || page === f.bboxPage)) return [{ page: f.bboxPage, rect: f.bbox }];
  return boxes;
}

function autofixOf(f: Finding): EvaluationAutofix {
  const { available, fixId, fixIds } = f.fix;
  if (!available || fixId === null) return { available: false };
  const info = findFix(fixId);
  const params = defaultParams(fixId);
  return {
    available: true,
    runner: 'autofix',
    fixId,
    ...(fixIds ? { fixIds: [...fixIds] } : {}),
    ...(info ? { strategy: info.name } : {}),
    ...(params ? { params } : {}),
  };
}

/** The parameters the autofix step applies a fix with when the request gives none (its defaults); undefined for a fix without parameters. */
function defaultParams(fixId: string): FixParamValues | undefined {
  const info = findFix(fixId);
  return info && info.params.length > 0 ? fixParams(info, undefined) : undefined;
}

/**
 * POST /jobs/fix runs preflight and then autofix, which applies the
 * preflight's recommendedFixes when the request names no items, each with its
 * default parameters (autofix/index.ts). With none recommended it applies nothing.
 */
function recommendedAutofix(fixes: string[]): Evaluation['recommendedAutofix'] {
  if (fixes.length === 0) return null;
  const params: Record<string, FixParamValues> = {};
  for (const fixId of fixes) {
    const p = defaultParams(fixId);
    if (p) params[fixId] = p;
  }
  return { runner: 'autofix', fixes: [...fixes], params };
}

/**
 * The checks this file gets without a finding, in the profile's order: passed,
 * or skipped when off (in the profile, or for want of the order context that
 * activates it) or when the file has nothing of the kind the check judges.
 */
function checkResults(input: EvaluationInput): { passed: CheckId[]; skipped: CheckId[] } {
  const found = new Set(input.findings.map((f) => f.checkId));
  const forFile = new Set(input.checks);
  const present = kindsPresent(input.sections);
  const passed: CheckId[] = [];
  const skipped: CheckId[] = [];
  for (const id of input.settings.checkSequence) {
    if (!forFile.has(id) || found.has(id)) continue;
    const judges = CHECKS_IN_REFERENCE[id].judges;
    if (input.settings.severity(id) === 'off' || (judges !== undefined && !present[judges])) skipped.push(id);
    else passed.push(id);
  }
  return { passed, skipped };
}

function kindsPresent(s: JudgedSections): Record<JudgedKind, boolean> {
  return {
    images: s.imageCount > 0,
    // Listed images stand for all when the list is cut; an image file without a stated size has no resolution to judge.
    'images-with-resolution': s.imagesTruncated === true || s.images.some((i) => i.ppiX !== null && i.ppiY !== null),
    text: s.fonts.some((f) => f.usedOnPages.length > 0),
    annotations: s.document.kind === 'pdf' && s.document.annotations > 0,
    'several-pages': s.pages.length > 1,
    // Bleed is measured from a TrimBox; pages without one have bleedMm null.
    'trimmed-pages': s.pages.some((p) => p.bleedMm !== null),
    transparency: s.pages.some((p) => p.transparency),
  };
}
