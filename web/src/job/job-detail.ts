/**
 * The job as GET /jobs/{id} answers it, beyond what the jobs list reads (web/src/api.ts): step
 * outputs, the terminal job's `results`, the webhook's deliveries and the review (docs/api.md §4,
 * §9, §11 rules 5 and 6).
 */
import type { Artifact, Job, Step, Task } from '../api';
import type { PreflightReport } from '../findings/report';
import type { Approval, JobRecord, Review, WebhookDelivery } from '../../../lambdas/domain/model';
import type { AutofixResultEntry, PreflightResultEntry, ValidateResultEntry } from '../../../lambdas/domain/step-results';

export interface PreviewsOutput {
  kind: 'previews';
  count: number;
  total: number | null;
  pages: { page: number; url?: string; width: number | null; height: number | null; mimeType: string }[];
}

export interface StepDetail extends Step {
  params?: Record<string, unknown>;
  runtimeParams?: Record<string, unknown> | null;
  outputs?: (Artifact | PreviewsOutput | { kind: string })[];
}

export interface TaskDetail extends Task {
  name?: string | null;
  fileRef: string | null;
  steps?: StepDetail[];
}

export type { ValidationFailure, ValidationProfileResult as ValidationProfile } from '../../../lambdas/domain/step-results';

/** `results` as the console reads it; the entries are the domain's own (lambdas/domain/step-results.ts), the report the browser's view of it. */
export interface JobResults {
  preflight?: (Omit<PreflightResultEntry, 'report'> & { report: PreflightReport | null })[];
  validate?: ValidateResultEntry[];
  autofix?: AutofixResultEntry[];
}


export interface JobDetail extends Job {
  tasks: TaskDetail[];
  policy: JobRecord['policy'];
  webhook?: { url: string; deliveries: WebhookDelivery[] };
  review?: Review;
  /** The customer's decision on a shared proof (docs/api.md §3, Share links). */
  approval?: Approval | null;
  results?: JobResults;
}

export const isPreviewsOutput = (o: { kind: string }): o is PreviewsOutput => o.kind === 'previews';

/** The task's first preflight report and its last one (a repreflight's, after fixes), when it has them. */
export function reportsOf(job: JobDetail, taskId: string): { first: PreflightReport | null; last: PreflightReport | null } {
  const entries = (job.results?.preflight ?? []).filter((e) => e.taskId === taskId && e.report);
  return { first: entries[0]?.report ?? null, last: entries[entries.length - 1]?.report ?? null };
}
