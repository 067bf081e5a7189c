/**
 * What each step type stores as StepRecord.result — written by the step workers,
 * read by the presenter to build the job's `results` (docs/api.md §4) and by later
 * steps of the same task (autofix reads the preceding preflight's
 * recommendedFixes; repreflight reuses the preceding preflight's profile) —
 * and the entry each step type's result becomes in `results` (made by the
 * catalogue's presenters, step-definitions/catalogue.ts).
 */
import type { Outcome, Status } from './vocabulary';

export interface PreflightFindingSummary {
  checkId: string;
  severity: 'error' | 'warn' | 'info';
  message: string;
  fix?: { available: boolean; fixId?: string };
  [key: string]: unknown;
}

/** The preflight report as the application reads it; the engine owns the rest of its shape. */
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
  /** Totals over the rounds: the fixes that changed something. */
  applied: { fixId: string; count: number; pages: number[] }[];
  /** Totals over the rounds: the fixes that never changed anything, with why. */
  skipped: { fixId: string; reason: string }[];
  /**
   * Each round of fixing and checking again (engine/autofix/index.ts); one with
   * explicit items. Absent from results stored before rounds existed.
   */
  rounds?: { applied: AutofixStepResult['applied']; skipped: AutofixStepResult['skipped'] }[];
}

/** optimize: what the engine reported (engine/optimize/types.ts OptimizeResult). */
export interface OptimizeStepResult {
  sizeBytesBefore: number;
  /** The output's size when `changed`, else the input's. */
  sizeBytes: number;
  appliedFixes: string[];
  skippedFixes: { id: string; reason: string }[];
  /** A smaller file was written and stored as the step's `optimized` output. */
  changed: boolean;
}

export interface PreviewsStepResult {
  /** How many page images were delivered (thumbnail not counted). */
  pages: number;
  /** Pages that could not be rendered, each with why; the others were delivered. */
  failures: { page: number; reason: string }[];
  /** How many pages the file has (absent from results recorded before it was kept). */
  totalPages?: number;
}

// ------------------------------------------------ entries of a job's `results`

/** A file a step stored, as a results entry shows it (the fields of StoredArtifact it needs). */
export interface ResultFile {
  role: string;
  bucket: string;
  key: string;
  sizeBytes: number;
  fileName: string;
}

/** A presigned download of a stored file, as read responses carry it (docs/api.md §3). */
export interface DownloadLink {
  downloadUrl: string;
  expiresIn: number;
}

export interface PreflightResultEntry {
  taskId: string;
  stepId: string;
  stepType: 'preflight' | 'repreflight';
  status: Status;
  outcome: Outcome | null;
  report: PreflightStepResult | null;
}

export interface ValidateResultEntry {
  taskId: string;
  status: Status;
  outcome: Outcome | null;
  /** false unless the validation ran and confirmed compliance. */
  compliant: boolean;
  profiles: ValidationProfileResult[];
}

export interface AutofixResultEntry {
  taskId: string;
  applied: AutofixStepResult['applied'];
  skipped: AutofixStepResult['skipped'];
  rounds?: AutofixStepResult['rounds'];
}

export interface PreviewsResultEntry {
  taskId: string;
  pages: number;
}

/** `results.optimize[]` (docs/api.md §11 rule 11): the optimized file, or null when none was kept. */
export interface OptimizeResultEntry {
  output: OptimizeOutput | null;
}

export interface OptimizeOutput extends DownloadLink {
  bucket: string;
  key: string;
  sizeBytes: number;
  sizeBytesBefore: number;
  appliedFixes: string[];
  skippedFixes: { id: string; reason: string }[];
}
