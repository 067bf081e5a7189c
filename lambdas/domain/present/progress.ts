/**
 * How far a task or a job has got, for people watching it (docs/api.md §4,
 * `progress`): steps finished out of steps, the pages the current step has
 * worked through out of its pages, and one percentage.
 *
 * Derived when read, like everything the presenter adds: the step records
 * say which steps are terminal, and a long step records its page counts as it
 * runs (StepRecord.pages, written by lambdas/steps/step-progress.ts).
 *
 * The percentage weighs each step alike and lets the running step's pages
 * fill its share; it is 100 only once the task or job is terminal (up to then
 * at most 99), and it never goes back: steps only become terminal, page
 * counts only grow (JobStore.recordStepPages), and a step that ends counts in
 * full.
 */
import { isTerminal, type JobRecord, type StepRecord, type TaskRecord } from '../model';

export interface Progress {
  stepsDone: number;
  stepsTotal: number;
  /** Pages the current step has worked through (0 until it reports any). */
  pagesDone: number;
  /** Pages the current step works through; null until known. */
  pagesTotal: number | null;
  /** 0 to 100; 100 only when terminal. */
  percent: number;
}

/** Short of 100 until the object is terminal: a running job is never shown finished. */
const UNFINISHED_MAX = 99;

interface StepPageCount {
  done: number;
  total: number | null;
}

/** A step's pages: its parts' counts summed, never past the total; all of them once it is done. */
export function stepPages(step: StepRecord): StepPageCount | null {
  if (!step.pages) return null;
  const { total } = step.pages;
  const counted = Object.values(step.pages.done ?? {}).reduce((sum, n) => sum + (Number.isFinite(n) && n > 0 ? n : 0), 0);
  if (total === null) return { done: counted, total: null };
  return { done: step.status === 'done' ? total : Math.min(counted, total), total };
}

/** The step whose pages a task shows: the one running, else the last one that counted pages. */
function currentPageStep(steps: StepRecord[]): StepRecord | undefined {
  return steps.find((s) => s.status === 'running') ?? [...steps].reverse().find((s) => s.pages);
}

/** `steps` are the task's own, in step order. */
export function taskProgress(task: Pick<TaskRecord, 'status'>, steps: StepRecord[]): Progress {
  const stepsTotal = steps.length;
  const stepsDone = steps.filter((s) => isTerminal(s.status)).length;
  const current = currentPageStep(steps);
  const pages = current ? stepPages(current) : null;
  let percent = 100;
  if (!isTerminal(task.status)) {
    const running = current?.status === 'running' && pages?.total ? pages.done / pages.total : 0;
    percent = stepsTotal === 0 ? 0 : Math.min(UNFINISHED_MAX, Math.floor(((stepsDone + running) / stepsTotal) * 100));
  }
  return { stepsDone, stepsTotal, pagesDone: pages?.done ?? 0, pagesTotal: pages?.total ?? null, percent };
}

/** The job's: its tasks' steps and known pages summed, and the mean of their percentages. */
export function jobProgress(job: Pick<JobRecord, 'status'>, tasks: Progress[]): Progress {
  const sum = (f: (p: Progress) => number) => tasks.reduce((n, p) => n + f(p), 0);
  const counted = tasks.filter((p) => p.pagesTotal !== null);
  const mean = tasks.length === 0 ? 0 : Math.floor(sum((p) => p.percent) / tasks.length);
  return {
    stepsDone: sum((p) => p.stepsDone),
    stepsTotal: sum((p) => p.stepsTotal),
    pagesDone: counted.reduce((n, p) => n + p.pagesDone, 0),
    pagesTotal: counted.length === 0 ? null : counted.reduce((n, p) => n + p.pagesTotal!, 0),
    percent: isTerminal(job.status) ? 100 : Math.min(UNFINISHED_MAX, mean),
  };
}
