/**
 * The workers as the job pipeline runs them: the real state machine definition
 * (step-definitions/job-pipeline.ts) under aws-local-stepfunctions, with
 * each Task state handled by the worker that CDK wires to it. This pins the
 * contract between the ASL and the workers: ingest's `{ ok }`, a thrown step
 * reaching StepFailed, RecordFailure's input, Finalise always ending the job.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StateMachine } from 'aws-local-stepfunctions';
import { setServices } from '../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../support/test-services';
import { WORKERS } from '../../../step-definitions/workers';
import { jobPipelineAsl } from '../../../step-definitions/job-pipeline';
import type { PipelineInput } from '../../../lambdas/domain/ports';
import type { JobGraph } from '../../../lambdas/domain/model';
import { handler as ingest } from '../../../lambdas/steps/ingest';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { handler as autofix } from '../../../lambdas/steps/autofix';
import { handler as validate } from '../../../lambdas/steps/validate';
import { handler as previews } from '../../../lambdas/steps/previews';
import { handler as optimize } from '../../../lambdas/steps/optimize';
import { handler as recordFailure } from '../../../lambdas/steps/record-failure';
import { handler as finalise } from '../../../lambdas/steps/finalise';
import { runStep, type StepInvocation, type StepWorker } from '../../../lambdas/steps/step-runner';
import { loadStepResult } from '../../../lambdas/domain/load-step-result';
import type { PreflightReportLike } from '../../../lambdas/domain/step-results';
import { buildPdf, pngBytes } from '../../support/pdf-fixtures';
import { createTestJob, reload, taskView } from './support/job-fixture';
import { captureLogLines, type CapturedLog } from '../../support/log-lines';

const definitionText = jobPipelineAsl();
const definition = JSON.parse(
  definitionText.replace(/\$\{(\w+)FunctionArn\}/g, (_m, key: string) => `arn:aws:lambda:us-east-1:000000000000:function:proofline-local-${key}`),
);

type Handler = (input: any) => Promise<any>;
const WORKER_HANDLERS: Record<keyof typeof WORKERS, Handler | null> = {
  ingest,
  preflight,
  autofix,
  validate,
  previews,
  optimize,
  recordFailure,
  finalise,
  continueJob: null,
  webhookCaller: null,
};

function localHandlers(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  const byState: Record<string, Handler> = {};
  for (const [id, spec] of Object.entries(WORKERS)) {
    const handler = WORKER_HANDLERS[id as keyof typeof WORKERS];
    if (handler) for (const state of spec.stateNames) byState[state] = handler;
  }
  return { ...byState, ...overrides };
}

function pipelineInput(graph: JobGraph): PipelineInput {
  return {
    jobId: graph.job.id,
    accountId: graph.job.accountId,
    tasks: graph.tasks.map((task) => ({
      taskId: task.id,
      steps: graph.steps.filter((s) => s.taskId === task.id).map((s) => ({ stepId: s.id, type: s.type, index: s.index })),
    })),
  };
}

async function runPipeline(graph: JobGraph, overrides: Record<string, Handler> = {}): Promise<JobGraph> {
  const machine = new StateMachine(definition, { validationOptions: { checkArn: false } });
  await machine.run(pipelineInput(graph) as never, { overrides: { taskResourceLocalHandlers: localHandlers(overrides) as never, retryIntervalOverrides: { Finalise: 0 } } }).result;
  return reload(t.services, graph.job.id);
}

let t: TestServices;
let server: http.Server;
let base: string;
let fixable: Uint8Array;

let quiet: CapturedLog | undefined;

beforeAll(async () => {
  // The workers' log lines, kept out of the test output.
  quiet = captureLogLines();
  t = await startTestServices({ config: { networkMode: 'local' } });
  setServices(t.services);
  fixable = await buildPdf({ pages: 1, documentJavaScript: 'app.alert("hi")' });
  server = http.createServer((req, res) => {
    if (req.url === '/card.pdf') res.end(Buffer.from(fixable));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  quiet?.restore();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  setServices(undefined);
  await t?.stop();
});

describe('the workers under the job pipeline state machine', () => {
  it('runs every task through its steps, skips what does not apply, and ends the job terminal once', async () => {
    const graph = await createTestJob(t.services, {
      webhook: true,
      tasks: [
        {
          locator: { kind: 'url', url: `${base}/card.pdf` },
          name: null,
          steps: [{ type: 'preflight' }, { type: 'autofix' }, { type: 'repreflight' }, { type: 'previews', params: { format: 'png', dpi: 36 } }],
        },
        { bytes: await pngBytes(), name: 'photo.png', steps: [{ type: 'validate', params: { profile: '2b' } }, { type: 'previews', params: { format: 'png', width: 64 } }] },
        { locator: { kind: 'url', url: `${base}/gone.pdf` }, steps: [{ type: 'preflight' }] },
      ],
    });
    const published = t.events.published.length;
    const after = await runPipeline(graph);

    const pdf = taskView(after, 0);
    expect(pdf.task).toMatchObject({ status: 'done', fileType: 'pdf' });
    expect(pdf.steps.map((s) => [s.type, s.status, s.outcome])).toEqual([
      ['preflight', 'done', expect.any(String)],
      ['autofix', 'done', 'fixed'],
      ['repreflight', 'done', expect.any(String)],
      ['previews', 'done', 'na'],
    ]);
    const [before, again] = [pdf.steps[0]!, pdf.steps[2]!];
    const jsFindings = async (step: typeof before) =>
      ((await loadStepResult(t.services.blobs, step)) as PreflightReportLike).findings.filter((f) => /javascript|action/i.test(f.checkId));
    expect((await jsFindings(before)).length).toBeGreaterThan(0);
    expect(await jsFindings(again)).toEqual([]);
    expect(again.runtimeParams!.profileId).toBe(before.runtimeParams!.profileId);
    expect(pdf.task.outcome).toBe(again.outcome);
    expect(pdf.task.currentFile).toEqual(pdf.steps[1]!.outputs[0]);

    const png = taskView(after, 1);
    expect(png.task).toMatchObject({ status: 'done', outcome: 'na', fileType: 'raster' });
    expect(png.steps.map((s) => s.status)).toEqual(['skipped', 'done']);

    const missing = taskView(after, 2);
    expect(missing.task).toMatchObject({ status: 'error', reason: 'The source URL answered HTTP 404.' });
    expect(missing.steps[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^Not run/) });

    expect(after.job).toMatchObject({ status: 'done', outcome: 'mixed', canProceed: false });
    expect(t.events.published.slice(published)).toEqual([{ jobId: graph.job.id, accountId: graph.job.accountId, status: 'done', outcome: 'mixed', hasWebhook: true }]);
    for (const task of after.tasks) {
      const times = (after.audit[task.id] ?? []).map((a) => a.at);
      expect([...times].sort()).toEqual(times);
    }
  });

  it('renders a previews step of more pages than one batch in batches, and records it as one step', async () => {
    // 7 pages, the 6th too large for 600 dpi, in batches of 3: [1-3] with the thumbnail, [4-6], [7].
    const pages = Array.from({ length: 7 }, (_, i) => (i === 5 ? { size: [5000, 5000] as [number, number] } : {}));
    const bytes = await buildPdf({ pages });
    const graph = await createTestJob(t.services, { tasks: [{ bytes, steps: [{ type: 'previews', params: { format: 'png', dpi: 600, width: 40, pages: '1-7,9' } }] }] });
    const previewsCalls: { phase?: string; batch?: { index: number; pages: number[] } }[] = [];
    const watched = (input: any) => {
      previewsCalls.push({ phase: input.phase, batch: input.batch });
      return previews(input);
    };
    const batchPages = t.services.config.previewBatchPages;
    t.services.config.previewBatchPages = 3;
    let after: JobGraph;
    try {
      after = await runPipeline(graph, { Previews: watched, RenderPreviewBatch: watched, FinishPreviews: watched });
    } finally {
      t.services.config.previewBatchPages = batchPages;
    }
    expect(previewsCalls.map((c) => c.phase ?? 'plan').sort()).toEqual(['batch', 'batch', 'batch', 'finish', 'plan']);
    expect(previewsCalls.filter((c) => c.batch).map((c) => c.batch!.pages).sort()).toEqual([[1, 2, 3], [4, 5, 6], [7]]);

    const { task, steps } = taskView(after, 0);
    expect(task.status).toBe('done');
    const step = steps[0]!;
    expect(step).toMatchObject({ status: 'done', outcome: 'na' });
    // width 40 wins over dpi: the 5000 pt page fits as well (40 px wide), so every page renders.
    expect(step.outputs.map((o) => [o.role, o.page])).toEqual([1, 2, 3, 4, 5, 6, 7].map((p) => ['preview', p]).concat([['thumbnail', 1]]));
    expect(step.result).toEqual({ pages: 7, failures: [{ page: 9, reason: 'The document has 7 pages; page 9 does not exist.' }], totalPages: 7 });
    expect(step.runtimeParams).toMatchObject({ format: 'png', width: 40, pages: [1, 2, 3, 4, 5, 6, 7] });
    // The batches' bookkeeping is gone; the images are where the record says.
    const stepPrefix = step.outputs[0]!.key.slice(0, step.outputs[0]!.key.lastIndexOf('/') + 1);
    for (const name of ['batch-plan.json', 'batch-0000.json', 'batch-0002.json']) expect(await t.services.blobs.head(stepPrefix + name)).toBeNull();
    for (const o of step.outputs) expect((await t.services.blobs.head(o.key))?.sizeBytes).toBe(o.sizeBytes);
    expect((after.audit[task.id] ?? []).filter((a) => a.stepId === step.id).map((a) => a.event)).toEqual(['step.started', 'step.finished']);
  });

  it('ends a batched previews step in error, with the pages\' reasons, when no page of any batch could be rendered', async () => {
    const bytes = await buildPdf({ pages: 4, pageDefaults: { size: [5000, 5000] } });
    const graph = await createTestJob(t.services, { tasks: [{ bytes, steps: [{ type: 'previews', params: { dpi: 600, thumbnail: false } }] }] });
    const batchPages = t.services.config.previewBatchPages;
    t.services.config.previewBatchPages = 2;
    let after: JobGraph;
    try {
      after = await runPipeline(graph);
    } finally {
      t.services.config.previewBatchPages = batchPages;
    }
    const { task, steps } = taskView(after, 0);
    expect(steps[0]).toMatchObject({ status: 'error', reason: expect.stringMatching(/^No page could be rendered \(page 1: .*megapixels.*; page 4: .*\)\.$/) });
    expect(task).toMatchObject({ status: 'error', reason: steps[0]!.reason });
    expect(after.job.status).toBe('error');
  });

  it('records a step that throws through StepFailed, skips the rest of its task, and still finalises', async () => {
    const crashing: StepWorker = {
      name: 'validate',
      async run() {
        throw new RangeError('Invalid typed array length: 4294967296');
      },
    };
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await buildPdf(), steps: [{ type: 'validate' }, { type: 'previews' }] }],
    });
    const stepFailed = vi.fn(recordFailure);
    const after = await runPipeline(graph, { Validate: (input: StepInvocation) => runStep(input, crashing), StepFailed: stepFailed });

    expect(stepFailed).toHaveBeenCalledTimes(1);
    expect(stepFailed.mock.calls[0]![0]).toMatchObject({ jobId: graph.job.id, step: { type: 'validate' }, failure: { Error: expect.any(String) } });
    const { task, steps } = taskView(after, 0);
    const reason = 'The validate step failed unexpectedly (RangeError).';
    expect(steps[0]).toMatchObject({ status: 'error', reason });
    expect(steps[1]).toMatchObject({ status: 'skipped', reason: 'Not run: an earlier step of this task failed.' });
    expect(task).toMatchObject({ status: 'error', reason });
    expect(after.job).toMatchObject({ status: 'error', outcome: null, canProceed: false });
  });

  it('records a timed-out ingest through IngestFailed and ends the job', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ locator: { kind: 'url', url: `${base}/card.pdf` }, steps: [{ type: 'preflight' }] }] });
    const timedOut = async () => {
      throw Object.assign(new Error('Task timed out after 300.00 seconds'), { name: 'Sandbox.Timedout' });
    };
    const after = await runPipeline(graph, { Ingest: timedOut });
    const { task, steps } = taskView(after, 0);
    expect(task).toMatchObject({ status: 'error', reason: 'The source could not be retrieved within 300 s.' });
    expect(steps[0]!.status).toBe('skipped');
    expect(after.job.status).toBe('error');
  });
});
