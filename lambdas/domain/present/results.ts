/**
 * A terminal job's `results` (docs/api.md §4): keys only for the step types that
 * ran, one entry per step in step order (task order, then step index), each
 * made by its step type's result presenter in the catalogue
 * (step-definitions/catalogue.ts) from the step record's result. A step that
 * ran and failed (`error`) keeps its entry, with empty findings, so its status
 * is visible where a client looks for the result; a step that never started
 * (skipped, or never reached) has none. A presenter that shows a stored file
 * (optimize's output) gets its presigned download from the same deps as the
 * rest of the response.
 */
import { STEP_CATALOGUE, type ResultLinks, type StepType } from '../../../step-definitions/catalogue';
import type { StepRecord, TaskRecord } from '../model';
import { downloadLink, type PresentDeps } from './artifacts';
import type { StepResultLoader } from './step-result';

type Presenter = (typeof STEP_CATALOGUE)[StepType]['results'];

/**
 * What every results entry starts with (docs/api.md §11 rule 4): the task's file
 * (as the clients written for the original service look it up) and the step's
 * status and outcome; the step type's own fields follow.
 */
export interface ResultHeader {
  taskId: string;
  fileRef: string | null;
  source: string;
  fileType: TaskRecord['fileType'];
  mimeType: string | null;
  status: StepRecord['status'];
  outcome: StepRecord['outcome'];
}

/** One list per result key of the catalogue, of the entries its presenter makes, each after its header. */
export type JobResults = { [P in Presenter as P['key']]?: (ResultHeader & Awaited<ReturnType<P['entry']>>)[] };

function headerOf(step: StepRecord, task: TaskRecord | undefined): ResultHeader {
  return {
    taskId: step.taskId,
    fileRef: task?.fileRef ?? null,
    source: task?.source ?? '',
    fileType: task?.fileType ?? null,
    mimeType: task?.mimeType ?? null,
    status: step.status,
    outcome: step.outcome,
  };
}

function ran(step: StepRecord): boolean {
  return step.status === 'done' || (step.status === 'error' && step.started !== null);
}

export async function buildResults(steps: StepRecord[], tasks: readonly TaskRecord[], deps: PresentDeps, load: StepResultLoader): Promise<JobResults> {
  const counted = steps.filter(ran);
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const links: ResultLinks = { link: (file) => downloadLink(file, deps) };
  const entries = await Promise.all(
    counted.map(async (step) => {
      const result = step.status === 'done' ? await load(step) : null;
      const presenter: Presenter = STEP_CATALOGUE[step.type].results;
      const entry = await presenter.entry({ ...step, outputs: step.outputs ?? [] }, result ?? null, links);
      return [presenter.key, { ...headerOf(step, taskById.get(step.taskId)), ...entry }] as const;
    }),
  );
  const results: Record<string, unknown[]> = {};
  for (const [key, entry] of entries) (results[key] ??= []).push(entry);
  return results as JobResults;
}
