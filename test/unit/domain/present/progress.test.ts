import { describe, expect, it } from 'vitest';
import type { Status, StepPages, StepRecord } from '../../../../lambdas/domain/model';
import { jobProgress, stepPages, taskProgress, type Progress } from '../../../../lambdas/domain/present/progress';

const step = (index: number, status: Status, pages?: StepPages): StepRecord => ({
  id: `step_${index}`,
  jobId: 'job_1',
  taskId: 'task_1',
  index,
  type: index === 0 ? 'preflight' : 'previews',
  status,
  outcome: null,
  reason: null,
  params: {},
  runtimeParams: null,
  started: null,
  ended: null,
  duration: null,
  outputs: [],
  result: null,
  resultKey: null,
  ...(pages ? { pages } : {}),
});

const running = { status: 'running' as const };

describe('stepPages', () => {
  it('sums the counts of the step’s parts (previews batches run at once)', () => {
    expect(stepPages(step(1, 'running', { total: 120, done: { main: 0, 'batch-0': 20, 'batch-1': 13 } }))).toEqual({ done: 33, total: 120 });
  });

  it('never counts past the total (a retried batch counted again)', () => {
    expect(stepPages(step(1, 'running', { total: 40, done: { 'batch-0': 20, 'batch-1': 25 } }))).toEqual({ done: 40, total: 40 });
  });

  it('counts every page of a step that is done, whatever the last count written was', () => {
    expect(stepPages(step(1, 'done', { total: 120, done: { main: 97 } }))).toEqual({ done: 120, total: 120 });
  });

  it('keeps the count of a step that ended in error', () => {
    expect(stepPages(step(1, 'error', { total: 120, done: { main: 97 } }))).toEqual({ done: 97, total: 120 });
  });

  it('is null for a step that reported no pages', () => {
    expect(stepPages(step(0, 'done'))).toBeNull();
  });
});

describe('taskProgress', () => {
  it('is 0 of n steps and 0 % before anything ran', () => {
    expect(taskProgress({ status: 'pending' }, [step(0, 'pending'), step(1, 'pending')])).toEqual({ stepsDone: 0, stepsTotal: 2, pagesDone: 0, pagesTotal: null, percent: 0 });
  });

  it('weighs steps alike and fills the running step’s share with its pages', () => {
    // One of two steps done, the second 30 of 120 pages in: (1 + 0.25) / 2.
    const p = taskProgress(running, [step(0, 'done'), step(1, 'running', { total: 120, done: { main: 30 } })]);
    expect(p).toEqual({ stepsDone: 1, stepsTotal: 2, pagesDone: 30, pagesTotal: 120, percent: 62 });
  });

  it('counts skipped and failed steps as done: they are terminal', () => {
    expect(taskProgress(running, [step(0, 'skipped'), step(1, 'error'), step(2, 'pending')])).toMatchObject({ stepsDone: 2, stepsTotal: 3, percent: 66 });
  });

  it('stays below 100 while the task runs, even with every page and step finished', () => {
    expect(taskProgress(running, [step(0, 'done'), step(1, 'done', { total: 5, done: { main: 5 } })]).percent).toBe(99);
    expect(taskProgress(running, [step(0, 'running', { total: 5, done: { main: 5 } })]).percent).toBe(99);
  });

  it('is 100 once the task is terminal, and shows the pages of its last counting step', () => {
    expect(taskProgress({ status: 'done' }, [step(0, 'done', { total: 8, done: { main: 6 } }), step(1, 'done')])).toEqual({ stepsDone: 2, stepsTotal: 2, pagesDone: 8, pagesTotal: 8, percent: 100 });
    expect(taskProgress({ status: 'error' }, [step(0, 'error'), step(1, 'skipped')]).percent).toBe(100);
  });

  it('leaves pagesTotal null while the running step has not said how many pages it has', () => {
    expect(taskProgress(running, [step(0, 'running', { total: null, done: { 'batch-0': 3 } })])).toMatchObject({ pagesDone: 3, pagesTotal: null, percent: 0 });
  });

  it('never goes back as a task moves through its steps and pages', () => {
    const states: [Status, Status, StepPages | undefined][] = [
      ['pending', 'pending', undefined],
      ['running', 'pending', undefined],
      ['done', 'running', undefined],
      ['done', 'running', { total: 40, done: { main: 0 } }],
      ['done', 'running', { total: 40, done: { main: 0, 'batch-1': 20 } }],
      ['done', 'running', { total: 40, done: { main: 0, 'batch-0': 20, 'batch-1': 20 } }],
      ['done', 'done', { total: 40, done: { main: 0, 'batch-0': 19, 'batch-1': 20 } }],
    ];
    const percents = states.map(([a, b, pages]) => taskProgress(running, [step(0, a), step(1, b, pages)]).percent);
    expect(percents).toEqual([0, 0, 50, 50, 75, 99, 99]);
    expect(taskProgress({ status: 'done' }, [step(0, 'done'), step(1, 'done')]).percent).toBe(100);
  });
});

describe('jobProgress', () => {
  const p = (stepsDone: number, stepsTotal: number, pagesDone: number, pagesTotal: number | null, percent: number): Progress => ({ stepsDone, stepsTotal, pagesDone, pagesTotal, percent });

  it('sums its tasks’ steps and known pages and averages their percentages', () => {
    expect(jobProgress(running, [p(1, 2, 30, 120, 62), p(0, 1, 0, null, 0), p(1, 1, 4, 4, 100)])).toEqual({ stepsDone: 2, stepsTotal: 4, pagesDone: 34, pagesTotal: 124, percent: 54 });
  });

  it('leaves pagesTotal null when no task knows its pages', () => {
    expect(jobProgress(running, [p(0, 1, 0, null, 0)])).toMatchObject({ pagesDone: 0, pagesTotal: null });
  });

  it('is 100 only once the job is terminal: tasks all finished before the finaliser ran is 99', () => {
    expect(jobProgress(running, [p(1, 1, 0, null, 100)]).percent).toBe(99);
    expect(jobProgress({ status: 'done' }, [p(1, 1, 0, null, 100)]).percent).toBe(100);
  });
});
