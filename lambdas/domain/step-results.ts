/**
 * What each step type stores as StepRecord.result — written by the step workers,
 * read by the presenter to build the job's `results` (API.md §4) and by later
 * steps of the same task (autofix reads the preceding preflight's
 * recommendedFixes; repreflight reuses the preceding preflight's profile).
 */
import type { StepRecord } from './model';
import type { BlobStore } from './ports';
export interface PreflightFindingSummary {
  checkId: string;
  severity: 'error' | 'warn' | 'info';
  message: string;
  fix?: { available: boolean; fixId?: string };
  [key: string]: unknown;
}

/** The preflight report (issue 3's shape); the engine owns its details. */
export interface PreflightReportLike {
  profile: { id: string; name: string };
  outcome: 'pass' | 'warn' | 'fail';
  summary: { errors: number; warnings: number; infos: number; pages: number };
  findings: PreflightFindingSummary[];
  recommendedFixes: string[];
  [key: string]: unknown;
}

/** preflight / repreflight: the report itself. */
export type PreflightStepResult = PreflightReportLike;

export interface ValidationFailure {
  ruleId: string;
  clause: string | null;
  description: string;
  occurrences: number;
  examples: Record<string, unknown>[];
}

export interface ValidationProfileResult {
  requested: string;
  matched: string | null;
  profileName: string | null;
  compliant: boolean;
  checks: { passed: number; failed: number };
  rules: { passed: number; failed: number };
  failures: ValidationFailure[];
}

export interface ValidateStepResult {
  compliant: boolean;
  profiles: ValidationProfileResult[];
}

export interface AutofixStepResult {
  applied: { fixId: string; count: number; pages: number[] }[];
  skipped: { fixId: string; reason: string }[];
}

export interface PreviewsStepResult {
  /** How many page images were delivered (thumbnail not counted). */
  pages: number;
  /** Pages that could not be rendered, each with why; the others were delivered. */
  failures: { page: number; reason: string }[];
}

/**
 * A step's stored result, wherever it lives: inline on the step record when
 * small, else as JSON in the blob store under `resultKey` (the step runner puts
 * it there when the record's inline limit would be exceeded). Throws when the
 * blob cannot be read; callers decide whether that is fatal.
 */
export async function loadStepResult(blobs: BlobStore, step: Pick<StepRecord, 'result' | 'resultKey'>): Promise<unknown | null> {
  if (step.result !== null && step.result !== undefined) return step.result;
  if (!step.resultKey) return null;
  const bytes = await blobs.getBytes(step.resultKey);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
}
