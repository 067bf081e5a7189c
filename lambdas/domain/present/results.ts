/**
 * A terminal job's `results` (API.md §4): keys only for the step types that
 * ran, one entry per step in step order (task order, then step index), built
 * from the step records' results (lambdas/domain/step-results.ts). A step that
 * ran and failed (`error`) keeps its entry, with empty findings, so its status
 * is visible where a client looks for the result; a step that never started
 * (skipped, or never reached) has none.
 */
import type { Outcome, Status, StepRecord } from '../model';
import type { BlobStore } from '../ports';
import type {
  AutofixStepResult,
  PreflightStepResult,
  PreviewsStepResult,
  ValidateStepResult,
  ValidationProfileResult,
} from '../step-results';
import { loadStepResultOrNull } from './step-result';

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
}

export interface PreviewsResultEntry {
  taskId: string;
  pages: number;
}

export interface JobResults {
  preflight?: PreflightResultEntry[];
  validate?: ValidateResultEntry[];
  autofix?: AutofixResultEntry[];
  previews?: PreviewsResultEntry[];
}

function ran(step: StepRecord): boolean {
  return step.status === 'done' || (step.status === 'error' && step.started !== null);
}

function push<K extends keyof JobResults>(results: JobResults, key: K, entry: NonNullable<JobResults[K]>[number]): void {
  const list = (results[key] ??= [] as NonNullable<JobResults[K]>) as unknown[];
  list.push(entry);
}

export async function buildResults(steps: StepRecord[], blobs: BlobStore): Promise<JobResults> {
  const counted = steps.filter(ran);
  const loaded = await Promise.all(counted.map((step) => loadStepResultOrNull(step, blobs)));
  const results: JobResults = {};
  counted.forEach((step, i) => {
    const result = step.status === 'done' ? loaded[i] : null;
    switch (step.type) {
      case 'preflight':
      case 'repreflight':
        push(results, 'preflight', {
          taskId: step.taskId,
          stepId: step.id,
          stepType: step.type,
          status: step.status,
          outcome: step.outcome,
          report: (result as PreflightStepResult | null) ?? null,
        });
        break;
      case 'validate': {
        const r = result as ValidateStepResult | null;
        push(results, 'validate', {
          taskId: step.taskId,
          status: step.status,
          outcome: step.outcome,
          compliant: r?.compliant === true,
          profiles: r?.profiles ?? [],
        });
        break;
      }
      case 'autofix': {
        const r = result as AutofixStepResult | null;
        push(results, 'autofix', { taskId: step.taskId, applied: r?.applied ?? [], skipped: r?.skipped ?? [] });
        break;
      }
      case 'previews': {
        const r = result as PreviewsStepResult | null;
        push(results, 'previews', { taskId: step.taskId, pages: typeof r?.pages === 'number' ? r.pages : 0 });
        break;
      }
    }
  });
  return results;
}
