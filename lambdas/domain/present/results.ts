/**
 * A terminal job's `results` (docs/api.md §4): keys only for the step types that
 * ran, one entry per step in step order (task order, then step index), each
 * made by its step type's result presenter in the catalogue
 * (step-definitions/catalogue.ts) from the step record's result. A step that
 * ran and failed (`error`) keeps its entry, with empty findings, so its status
 * is visible where a client looks for the result; a step that never started
 * (skipped, or never reached) has none.
 */
import { STEP_CATALOGUE, type StepType } from '../../../step-definitions/catalogue';
import type { StepRecord } from '../model';
import type { BlobStore } from '../ports';
import { loadStepResultOrNull } from './step-result';

type Presenter = (typeof STEP_CATALOGUE)[StepType]['results'];

/** One list per result key of the catalogue, of the entries its presenter makes. */
export type JobResults = { [P in Presenter as P['key']]?: ReturnType<P['entry']>[] };

function ran(step: StepRecord): boolean {
  return step.status === 'done' || (step.status === 'error' && step.started !== null);
}

export async function buildResults(steps: StepRecord[], blobs: BlobStore): Promise<JobResults> {
  const counted = steps.filter(ran);
  const loaded = await Promise.all(counted.map((step) => loadStepResultOrNull(step, blobs)));
  const results: Record<string, unknown[]> = {};
  counted.forEach((step, i) => {
    const result = step.status === 'done' ? loaded[i] : null;
    const presenter: Presenter = STEP_CATALOGUE[step.type].results;
    (results[presenter.key] ??= []).push(presenter.entry(step, result ?? null));
  });
  return results as JobResults;
}
