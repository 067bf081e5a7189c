/**
 * The invocation's time (lambdas/steps/step-budget.ts) and how the step runner
 * keeps to it when storing outputs: optional outputs (proof images) are left
 * out when storing runs late, a required one ends the step with a sentence,
 * never at the worker's own timeout. Budgets are a fake Lambda context's
 * few seconds.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { invocationBudget, stepBudget, within } from '../../../lambdas/steps/step-budget';
import { runStep, type StepWorker } from '../../../lambdas/steps/step-runner';
import { engineTimeoutMs, withinWorkBudget } from '../../../lambdas/steps/work-budget';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

describe('stepBudget', () => {
  it('keeps a share of the time for storing outputs and for the records, each capped', () => {
    let now = 1_000;
    const b = stepBudget(10_000, () => now);
    // Records: 5 % of the whole, but at least 1 s; outputs: 20 %.
    expect(b.storeDeadline).toBe(1_000 + 10_000 - 1_000);
    expect(b.workDeadline).toBe(1_000 + 10_000 - 1_000 - 2_000);
    expect(b.workMs).toBe(7_000);
    now = 7_500;
    expect(b.workLeftMs()).toBe(500);
    now = 9_000;
    expect(b.workLeftMs()).toBe(0);
    expect(b.storeLeftMs()).toBe(1_000);

    // A short budget keeps at most a quarter for the records.
    expect(stepBudget(2_000, () => 0).storeDeadline).toBe(1_500);

    const lambda = stepBudget(900_000, () => 0);
    expect(lambda.storeDeadline).toBe(900_000 - 15_000);
    expect(lambda.workDeadline).toBe(900_000 - 15_000 - 90_000);
  });

  it('takes the time from the context when there is one, else the worker timeout', () => {
    expect(invocationBudget({ getRemainingTimeInMillis: () => 4_000 }, 900_000, () => 0).totalMs).toBe(4_000);
    expect(invocationBudget(undefined, 900_000, () => 0).totalMs).toBe(900_000);
    expect(invocationBudget({}, 300_000, () => 0).totalMs).toBe(300_000);
  });
});

describe('engineTimeoutMs', () => {
  it("is the engine's own limit or what is left of the work time, whichever is less, and a sentence when too little is left", () => {
    let now = 0;
    const b = stepBudget(100_000, () => now); // work until 75 s
    expect(engineTimeoutMs(b, 60_000, 'Preflight')).toBe(60_000);
    now = 50_000;
    expect(engineTimeoutMs(b, 60_000, 'Preflight')).toBe(25_000);
    now = 74_500;
    expect(() => engineTimeoutMs(b, 60_000, 'Preflight')).toThrow(/^Preflight could not start: the step had no time left for it of its 75 s\./);
  });
});

describe('within', () => {
  it('gives the value when the work ends in time, and gives up on it (ignoring a later rejection) at the deadline', async () => {
    await expect(within(Promise.resolve(7), Date.now() + 1_000)).resolves.toEqual({ done: true, value: 7 });
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), 200));
    await expect(within(late, Date.now() + 20)).resolves.toEqual({ done: false });
    await new Promise((r) => setTimeout(r, 250));
  });

  it('passes on a rejection that comes in time', async () => {
    await expect(within(Promise.reject(new Error('broken')), Date.now() + 1_000)).rejects.toThrow('broken');
  });
});

const t = useWorkerServices();
const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const BUDGET_MS = 3_000;
const context = { getRemainingTimeInMillis: () => BUDGET_MS };

/** A preflight-like worker: a report, and two proof images marked optional. */
const reportWithProofs: StepWorker = {
  name: 'preflight',
  async run({ workDir }) {
    const files = ['report.json', 'p1.jpg', 'p2.jpg'].map((f) => join(workDir, f));
    for (const f of files) await writeFile(f, '{}');
    return {
      outcome: 'warn',
      result: { profile: { id: 'default', name: 'Default' }, outcome: 'warn', summary: { errors: 0, warnings: 1, infos: 0, pages: 2 }, findings: [], recommendedFixes: [] },
      runtimeParams: { profileId: 'default' },
      outputs: [
        { path: files[0]!, keyName: 'preflight-report.json', artifact: { kind: 'report', role: 'preflight-report', mimeType: 'application/json', fileName: 'card-preflight-report.json' } },
        ...[1, 2].map((page) => ({
          path: files[page]!,
          keyName: `proof-page-${page}.jpg`,
          artifact: { kind: 'image' as const, role: 'proof' as const, mimeType: 'image/jpeg', fileName: `card-proof-page-${page}.jpg`, page },
          optional: true,
        })),
      ],
      summary: 'The preflight step finished with outcome warn (profile default: 0 errors, 1 warning); 2 proof images.',
    };
  },
};

/** putFile that never ends for keys matching `stuck`. */
function stuckUploads(stuck: RegExp) {
  const put = t.services.blobs.putFile.bind(t.services.blobs);
  return vi.spyOn(t.services.blobs, 'putFile').mockImplementation((key, path, type) => (stuck.test(key) ? new Promise(() => {}) : put(key, path, type)));
}

describe('storing outputs within the budget', () => {
  it('leaves out optional outputs not stored in time, keeps the report, and says so', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: Buffer.from('%PDF-1.7'), ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const spy = stuckUploads(/proof-page-1/);
    const t0 = Date.now();
    try {
      await expect(runStep(stepEvent(graph, 0, 0), reportWithProofs, context)).resolves.toMatchObject({ status: 'done', outcome: 'warn' });
    } finally {
      spy.mockRestore();
    }
    expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]!.outputs.map((o) => o.role)).toEqual(['preflight-report']);
    expect(audit.at(-1)!.message).toMatch(/; 2 proof images\; 2 proof images were not stored: storing did not finish within [\d.]+ s\.$/);
  });

  it('ends the step with a sentence when a required output is not stored in time', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: Buffer.from('%PDF-1.7'), ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const spy = stuckUploads(/preflight-report/);
    const t0 = Date.now();
    try {
      await expect(runStep(stepEvent(graph, 0, 0), reportWithProofs, context)).resolves.toMatchObject({ status: 'error' });
    } finally {
      spy.mockRestore();
    }
    expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    const { steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'error' });
    expect(steps[0]!.reason).toMatch(/^The step's results could not be stored within [\d.]+ s\./);
  });

  it('ends the step with a sentence when the work is not done by the work deadline', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: Buffer.from('%PDF-1.7'), ingested: pdf, steps: [{ type: 'validate' }] }] });
    const never: StepWorker = {
      name: 'validate',
      run: ({ budget }) => withinWorkBudget(budget, new Promise<never>(() => {}), 'Validation'),
    };
    const t0 = Date.now();
    await expect(runStep(stepEvent(graph, 0, 0), never, context)).resolves.toMatchObject({ status: 'error' });
    expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    const { steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]!.reason).toMatch(/^Validation did not finish within the [\d.]+ s the step has for it\./);
  });
});
