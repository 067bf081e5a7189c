import { describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useWorkerServices } from './support/worker-services';
import { runStep, type StepWorkInput, type StepWorker } from '../../../lambdas/steps/step-runner';
import { handler as recordFailure } from '../../../lambdas/steps/record-failure';
import { loadStepResult } from '../../../lambdas/domain/load-step-result';
import { EARLIER_STEP_FAILED } from '../../../lambdas/steps/task-records';
import { UnprocessableFileError } from '../../../lambdas/domain/errors';
import { jobPrefix } from '../../../lambdas/domain/blob-keys';
import { skipReason } from '../../../step-definitions/catalogue';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';
import { listKeys } from './support/blob-listing';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const raster = { fileType: 'raster' as const, mimeType: 'image/png' };
const original = Buffer.from('%PDF-1.7 original bytes');

/** A worker that writes a JSON report of what it saw and counts its calls. */
function reportingWorker(name: StepWorker['name'] = 'preflight') {
  const seen: { input: string; workDir: string }[] = [];
  const worker: StepWorker = {
    name,
    async run({ input: file, workDir, step }: StepWorkInput) {
      const input = await readFile(await file.local(), 'utf8');
      seen.push({ input, workDir });
      const path = join(workDir, 'report.json');
      await writeFile(path, JSON.stringify({ input }));
      return {
        outcome: 'warn',
        result: { profile: { id: 'default', name: 'Default' }, outcome: 'warn', summary: { errors: 0, warnings: 1, infos: 0, pages: 1 }, findings: [], recommendedFixes: [] },
        runtimeParams: { profileId: 'default' },
        outputs: [{ path, keyName: 'preflight-report.json', artifact: { kind: 'report', role: 'preflight-report', mimeType: 'application/json', fileName: `card-${step.type}-report.json` } }],
        summary: 'The preflight step finished with outcome warn.',
      };
    },
  };
  return { worker, seen };
}

/** A worker that writes a changed file, the way autofix does. */
const fixingWorker: StepWorker = {
  name: 'autofix',
  async run({ input, workDir }) {
    const path = join(workDir, 'fixed.pdf');
    await writeFile(path, Buffer.concat([await readFile(await input.local()), Buffer.from(' + fixed')]));
    return {
      outcome: 'fixed',
      result: { applied: [{ fixId: 'boxes.normalize', count: 1, pages: [1] }], skipped: [] },
      runtimeParams: { profileId: 'default' },
      outputs: [{ path, keyName: 'card-fixed.pdf', artifact: { kind: 'file', role: 'fixed', mimeType: 'application/pdf', fileName: 'card-fixed.pdf' } }],
      summary: 'The autofix step changed the file (applied: boxes.normalize).',
    };
  },
};

describe('the step runner', () => {
  it('runs a pending step on the task\'s file and records outcome, outputs, runtimeParams, timing and audit', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const { worker, seen } = reportingWorker();
    await expect(runStep(stepEvent(graph, 0, 0), worker)).resolves.toMatchObject({ status: 'done', outcome: 'warn' });

    expect(seen.map((s) => s.input)).toEqual([original.toString()]);
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    const step = steps[0]!;
    expect(step).toMatchObject({ status: 'done', outcome: 'warn', reason: null, runtimeParams: { profileId: 'default' }, resultKey: null });
    expect(step.started! <= step.ended!).toBe(true);
    expect(step.duration).toBeGreaterThanOrEqual(0);
    expect(step.outputs).toEqual([
      {
        kind: 'report',
        role: 'preflight-report',
        mimeType: 'application/json',
        fileName: 'card-preflight-report.json',
        bucket: t.config.bucketName,
        key: `${jobPrefix(graph.job.accountId, graph.job.id)}${step.taskId}/${step.id}/preflight-report.json`,
        sizeBytes: expect.any(Number),
      },
    ]);
    expect(JSON.parse(Buffer.from(await t.services.blobs.getBytes(step.outputs[0]!.key)).toString())).toEqual({ input: original.toString() });
    expect(audit.map((a) => [a.event, a.stepId])).toEqual([
      ['step.started', step.id],
      ['step.finished', step.id],
    ]);
    // The scratch directory is gone after the step.
    expect(existsSync(seen[0]!.workDir)).toBe(false);
  });

  it('skips a step whose type does not accept the file type, with the reason and an audit entry, and still runs the others', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, name: 'photo.png', ingested: raster, steps: [{ type: 'validate' }, { type: 'previews' }] }] });
    const { worker, seen } = reportingWorker('validate');
    await expect(runStep(stepEvent(graph, 0, 0), worker)).resolves.toMatchObject({ status: 'skipped' });
    expect(seen).toEqual([]);
    const previews = reportingWorker('previews');
    await expect(runStep(stepEvent(graph, 0, 1), previews.worker)).resolves.toMatchObject({ status: 'done' });

    const { task, steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'skipped', outcome: null, reason: skipReason('validate', 'raster'), started: null });
    expect(steps[0]!.reason).toMatch(/validate.*raster/);
    expect(steps[1]!.status).toBe('done');
    expect(task.status).toBe('running');
    expect(audit.find((a) => a.event === 'step.skipped')).toMatchObject({ stepId: steps[0]!.id, message: steps[0]!.reason });
  });

  it('hands later steps the file as earlier steps left it', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }, { type: 'autofix' }, { type: 'repreflight' }] }] });
    const { worker, seen } = reportingWorker();
    await runStep(stepEvent(graph, 0, 0), worker);
    await expect(runStep(stepEvent(graph, 0, 1), fixingWorker)).resolves.toMatchObject({ outcome: 'fixed' });
    await runStep(stepEvent(graph, 0, 2), worker);

    expect(seen.map((s) => s.input)).toEqual([original.toString(), `${original.toString()} + fixed`]);
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    const fixed = steps[1]!.outputs[0]!;
    expect(fixed).toMatchObject({ role: 'fixed', kind: 'file', fileName: 'card-fixed.pdf' });
    expect(task.currentFile).toEqual(fixed);
    expect(task.originalArtifact!.key).not.toBe(fixed.key);
  });

  it('leaves a finished step as it is when it is run again: no second run, no changed record, no extra output', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const { worker, seen } = reportingWorker();
    await runStep(stepEvent(graph, 0, 0), worker);
    const once = await reload(t.services, graph.job.id);
    const keysOnce = await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id));

    await expect(runStep(stepEvent(graph, 0, 0), worker)).resolves.toMatchObject({ status: 'done', outcome: 'warn' });
    const twice = await reload(t.services, graph.job.id);
    expect(seen).toHaveLength(1);
    expect(twice.steps).toEqual(once.steps);
    expect(twice.audit).toEqual(once.audit);
    expect(await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id))).toEqual(keysOnce);
  });

  it('runs a step again that an interrupted attempt left running, overwriting its outputs rather than adding to them', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'autofix' }] }] });
    await runStep(stepEvent(graph, 0, 0), fixingWorker);
    const keysOnce = await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id));
    // Put the step back as an attempt that died after starting would have left it.
    const step = graph.steps[0]!;
    await t.services.jobs.transitionStep(graph.job.id, step.id, ['done'], 'running', {});

    await expect(runStep(stepEvent(graph, 0, 0), fixingWorker)).resolves.toMatchObject({ status: 'done', outcome: 'fixed' });
    expect(await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id))).toEqual(keysOnce);
    const { audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(audit.map((a) => a.event)).toEqual(['step.started', 'step.finished', 'step.retried', 'step.finished']);
  });

  it('leaves nothing in storage when the job is deleted while a step runs', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'autofix' }] }] });
    const deletedMidway: StepWorker = {
      name: 'autofix',
      async run(input) {
        // The worker has its file (as every engine reads it first); then DELETE /jobs/{id} lands: blobs, then records.
        await input.input.local();
        await t.services.blobs.deletePrefix(jobPrefix(graph.job.accountId, graph.job.id));
        await t.services.jobs.deleteJob(graph.job.id);
        return fixingWorker.run(input);
      },
    };
    await runStep(stepEvent(graph, 0, 0), deletedMidway);
    expect(await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id))).toEqual([]);
  });

  it('keeps the outputs of a step that lost its record to a recorded failure: the job still owns them', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'autofix' }] }] });
    const timedOutMeanwhile: StepWorker = {
      name: 'autofix',
      async run(input) {
        await t.services.jobs.transitionStep(graph.job.id, graph.steps[0]!.id, ['running'], 'error', { reason: 'The autofix step did not finish within 900 s.' });
        return fixingWorker.run(input);
      },
    };
    await runStep(stepEvent(graph, 0, 0), timedOutMeanwhile);
    const keys = await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id));
    expect(keys.some((k) => k.endsWith('/card-fixed.pdf'))).toBe(true);
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]!.status).toBe('error');
  });

  it('skips the steps of a task that has already failed', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: original, ingested: pdf, status: 'error', reason: 'The file is damaged.', steps: [{ type: 'preflight', status: 'error', reason: 'The file is damaged.' }, { type: 'previews' }] }],
    });
    const { worker, seen } = reportingWorker('previews');
    await expect(runStep(stepEvent(graph, 0, 1), worker)).resolves.toMatchObject({ status: 'skipped' });
    expect(seen).toEqual([]);
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[1]).toMatchObject({ status: 'skipped', reason: EARLIER_STEP_FAILED });
    expect(audit.map((a) => a.event)).toEqual(['step.skipped']);
  });

  it('records an unprocessable file as step and task error with its message, and returns normally', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }, { type: 'previews' }] }] });
    const broken: StepWorker = {
      name: 'preflight',
      async run() {
        throw new UnprocessableFileError('The file is not a readable PDF: its cross-reference table is damaged.');
      },
    };
    await expect(runStep(stepEvent(graph, 0, 0), broken)).resolves.toMatchObject({ status: 'error' });
    const { task, steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    const reason = 'The file is not a readable PDF: its cross-reference table is damaged.';
    expect(steps[0]).toMatchObject({ status: 'error', outcome: null, reason });
    expect(steps[0]!.ended).toBeTruthy();
    expect(task).toMatchObject({ status: 'error', outcome: null, reason });
    expect(audit.map((a) => a.event)).toEqual(['step.started', 'step.failed', 'task.failed']);
  });

  it('records an unexpected exception with a clean reason, rethrows it for Step Functions, and stays as it is when RecordFailure follows', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'validate' }] }] });
    const crashing: StepWorker = {
      name: 'validate',
      async run() {
        return (undefined as unknown as { x: () => never }).x();
      },
    };
    const thrown = await runStep(stepEvent(graph, 0, 0), crashing).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(thrown).toBeInstanceOf(TypeError);
    const reason = 'The validate step failed unexpectedly (TypeError).';
    let { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'error', reason });
    expect(task).toMatchObject({ status: 'error', reason });

    await recordFailure({ ...stepEvent(graph, 0, 0), failure: { Error: 'TypeError', Cause: JSON.stringify({ errorType: 'TypeError', errorMessage: thrown!.message, trace: thrown!.stack?.split('\n') }) } });
    ({ task, steps } = taskView(await reload(t.services, graph.job.id), 0));
    expect(steps[0]!.reason).toBe(reason);
    expect(task.reason).toBe(reason);
  });

  it('stores a result too large for the step record in the blob store and points at it', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const findings = Array.from({ length: 2000 }, (_, i) => ({ checkId: 'fonts.embedded', severity: 'error', message: `Font F${i} on page ${i + 1} is not embedded; the printer may substitute it.` }));
    const big = { profile: { id: 'default', name: 'Default' }, outcome: 'fail', summary: { errors: 2000, warnings: 0, infos: 0, pages: 2000 }, findings, recommendedFixes: [] };
    const bigWorker: StepWorker = {
      name: 'preflight',
      async run() {
        return { outcome: 'fail', result: big, runtimeParams: { profileId: 'default' }, outputs: [], summary: 'The preflight step finished with outcome fail.' };
      },
    };
    await runStep(stepEvent(graph, 0, 0), bigWorker);
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    expect(step.result).toBeNull();
    expect(step.resultKey).toBe(`${jobPrefix(graph.job.accountId, graph.job.id)}${step.taskId}/${step.id}/result.json`);
    expect(await loadStepResult(t.services.blobs, step)).toEqual(big);
  });

  it('logs one structured line per invocation with the job, task, step, outcome and duration', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const before = t.log.lines().length;
    await runStep(stepEvent(graph, 0, 0), reportingWorker().worker);
    const lines = t.log.lines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: 'INFO',
      message: 'preflight done',
      timestamp: expect.any(String),
      service: 'proofline',
      sampling_rate: 0,
      worker: 'preflight',
      jobId: graph.job.id,
      accountId: graph.job.accountId,
      taskId: graph.tasks[0]!.id,
      stepId: graph.steps[0]!.id,
      result: 'done',
      outcome: 'warn',
      durationMs: expect.any(Number),
    });
  });

  it('logs a step that ends in error at level error, with the reason recorded on it and the error with its stack', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: original, ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const failing: StepWorker = {
      name: 'preflight',
      async run() {
        throw new RangeError('offset out of range');
      },
    };
    const before = t.log.lines().length;
    await expect(runStep(stepEvent(graph, 0, 0), failing)).rejects.toThrow('offset out of range');
    const [line] = t.log.lines().slice(before);
    expect(line).toMatchObject({ level: 'ERROR', message: 'preflight error', jobId: graph.job.id, stepId: graph.steps[0]!.id, result: 'error' });
    expect(line!.reason).toBe(taskView(await reload(t.services, graph.job.id), 0).steps[0]!.reason);
    expect(line!.error).toMatchObject({ name: 'RangeError', message: 'offset out of range', stack: expect.stringContaining('RangeError') });
  });

  it('does nothing for a job that no longer exists', async () => {
    const { worker, seen } = reportingWorker();
    const event = { jobId: 'job_01h00000000000000000000000', accountId: 'a', taskId: 'task_01h00000000000000000000000', step: { stepId: 'step_01h00000000000000000000000', type: 'preflight', index: 0 } };
    await expect(runStep(event, worker)).resolves.toMatchObject({ status: 'missing' });
    expect(seen).toEqual([]);
  });
});
