/**
 * What a finished step's `outputs` show beside its files, in the shapes the
 * clients written for the original service read (docs/api.md §11 rules 1 and
 * 6), from the step's result:
 * - previews: the `{ kind: "previews", count, total, pages }` entry
 *   (previews-outputs.ts);
 * - preflight and repreflight: the report file carries the report's counts
 *   inline, `body: { summary: { errors, warnings, infos, pages } }`;
 * - validate: `{ kind: "validate", profile: [codes asked for], result: {
 *   results: [ { profile: "auto:1b", profileName, compliant, passedChecks,
 *   failedChecks, passedRules, failedRules, failedRuleDetails } ] } }`.
 * The job response presents them with URLs, the webhook body without.
 */
import type { StepRecord, StoredArtifact } from '../model';
import type { PreflightStepResult, ValidateStepResult } from '../step-results';
import { previewsOutputsEntry, type PreviewsOutputsEntry } from './previews-outputs';

export interface ValidateOutputsEntry {
  kind: 'validate';
  profile: string[];
  result: {
    results: {
      profile: string;
      profileName: string | null;
      compliant: boolean;
      passedChecks: number;
      failedChecks: number;
      passedRules: number;
      failedRules: number;
      failedRuleDetails: ValidateStepResult['profiles'][number]['failures'];
    }[];
  };
}

export type StepOutputsEntry = PreviewsOutputsEntry | ValidateOutputsEntry;

/** A report file with the report's counts inline. */
export type WithReportBody<A> = A & { body?: { summary: PreflightStepResult['summary'] } };

/** Which steps' outputs depend on their result: load it only for those. */
export function outputsNeedResult(step: StepRecord): boolean {
  return step.status === 'done' && (step.type === 'previews' || step.type === 'validate' || step.type === 'preflight' || step.type === 'repreflight');
}

/** The step's files (as presented or plain) with what its result adds. */
export function stepOutputs<A extends StoredArtifact & { downloadUrl?: string }>(step: StepRecord, files: A[], result: unknown): (WithReportBody<A> | StepOutputsEntry)[] {
  if (step.status !== 'done' || result === null || result === undefined) return files;
  switch (step.type) {
    case 'previews':
      return [...files, previewsOutputsEntry(files, result)];
    case 'preflight':
    case 'repreflight': {
      const summary = (result as Partial<PreflightStepResult>).summary;
      return summary ? files.map((f) => (f.role === 'preflight-report' ? { ...f, body: { summary } } : f)) : files;
    }
    case 'validate':
      return [...files, validateEntry(step, result as ValidateStepResult)];
    default:
      return files;
  }
}

function validateEntry(step: StepRecord, result: ValidateStepResult): ValidateOutputsEntry {
  const asked = (step.params as { profile?: unknown } | null)?.profile ?? 'auto';
  return {
    kind: 'validate',
    profile: Array.isArray(asked) ? asked.map(String) : [String(asked)],
    result: {
      results: (result.profiles ?? []).map((p) => ({
        profile: p.matched ? `${p.requested}:${p.matched}` : p.requested,
        profileName: p.profileName,
        compliant: p.compliant,
        passedChecks: p.checks.passed,
        failedChecks: p.checks.failed,
        passedRules: p.rules.passed,
        failedRules: p.rules.failed,
        failedRuleDetails: p.failures,
      })),
    },
  };
}
