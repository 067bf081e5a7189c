/**
 * What the pipeline's workers count (platform/observability/metric-table.ts):
 * a finished step's duration by type, a step ended in error by the class of
 * its reason (once, whoever records it), a file refused as unreadable by where,
 * and a job made terminal by its status and outcome (once, by the call that won).
 */
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useWorkerServices } from './support/worker-services';
import { useMemoryMetrics } from '../../support/memory-metrics';
import { runStep, type StepWorker } from '../../../lambdas/steps/step-runner';
import { handler as recordFailure } from '../../../lambdas/steps/record-failure';
import { handler as finalise } from '../../../lambdas/steps/finalise';
import { handler as ingest } from '../../../lambdas/steps/ingest';
import { UnprocessableFileError } from '../../../lambdas/domain/errors';
import { createTestJob, stepEvent } from './support/job-fixture';

const t = useWorkerServices();
const metrics = useMemoryMetrics();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const bytes = new Uint8Array([37, 80, 68, 70]);

const recorded = () => metrics.sink.recorded.map(({ name, dimensions }) => ({ name, dimensions }));

const validWorker: StepWorker = {
  name: 'validate',
  async run({ workDir }) {
    const path = join(workDir, 'report.json');
    await writeFile(path, '{}');
    return {
      outcome: 'pass',
      result: { outcome: 'pass' },
      runtimeParams: {},
      outputs: [{ path, keyName: 'validation-report.json', artifact: { kind: 'report', role: 'validation-report', mimeType: 'application/json', fileName: 'r.json' } }],
      summary: 'The validate step finished with outcome pass.',
    };
  },
};

const throwing = (err: Error): StepWorker => ({
  name: 'preflight',
  async run() {
    throw err;
  },
});

async function oneStepJob(type: 'preflight' | 'validate' = 'preflight', status: 'pending' | 'running' = 'pending') {
  const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type, status }] }] });
  return { graph, event: stepEvent(graph, 0, 0) };
}

describe('a step that finishes', () => {
  it('records its duration in milliseconds under its step type, and publishes it', async () => {
    const { event } = await oneStepJob('validate');
    await runStep(event, validWorker);
    const [duration, ...rest] = metrics.sink.recorded;
    expect(rest).toEqual([]);
    expect(duration).toMatchObject({ name: 'StepDuration', unit: 'Milliseconds', dimensions: { stepType: 'validate' } });
    expect(duration!.value).toBeGreaterThanOrEqual(0);
    expect(metrics.sink.flushes).toBe(1);
  });
});

describe('a step that ends in error', () => {
  it('counts an unreadable file once as a step error of class unprocessable and once as an unreadable file of its step type', async () => {
    const { event } = await oneStepJob();
    await runStep(event, throwing(new UnprocessableFileError('The file is encrypted and needs a password.')));
    expect(recorded()).toEqual([
      { name: 'UnreadableFiles', dimensions: { stage: 'preflight' } },
      { name: 'StepErrors', dimensions: { reasonClass: 'unprocessable' } },
    ]);
    expect(metrics.sink.flushes).toBe(1);
  });

  it('counts an unexpected exception once, though StepFailed runs after the worker recorded it', async () => {
    const { graph, event } = await oneStepJob();
    await expect(runStep(event, throwing(new RangeError('bad')))).rejects.toThrow('bad');
    await recordFailure({ ...stepEvent(graph, 0, 0), failure: { Error: 'RangeError', Cause: '{"errorType":"RangeError","errorMessage":"bad"}' } });
    expect(recorded()).toEqual([{ name: 'StepErrors', dimensions: { reasonClass: 'unexpected' } }]);
  });

  it.each([
    ['timeout', { Error: 'States.Timeout', Cause: 'Task timed out' }],
    ['out-of-memory', { Error: 'Runtime.OutOfMemory', Cause: '' }],
    ['no-worker', { Error: 'UnknownStepType', Cause: '' }],
    ['unexpected', { Error: 'Lambda.Unknown', Cause: 'The cause could not be determined' }],
  ])('counts a failure StepFailed records (%s) under that class', async (reasonClass, failure) => {
    const { graph } = await oneStepJob('preflight', 'running');
    await recordFailure({ ...stepEvent(graph, 0, 0), failure });
    expect(recorded()).toEqual([{ name: 'StepErrors', dimensions: { reasonClass } }]);
    expect(metrics.sink.flushes).toBe(1);
  });
});

describe('ingest', () => {
  it('counts a source it cannot read as an unreadable file at stage ingest', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: new Uint8Array(), steps: [{ type: 'preflight' }] }] });
    await expect(ingest({ jobId: graph.job.id, accountId: graph.job.accountId, taskId: graph.tasks[0]!.id })).resolves.toEqual({ ok: false });
    expect(recorded()).toEqual([{ name: 'UnreadableFiles', dimensions: { stage: 'ingest' } }]);
    expect(metrics.sink.flushes).toBe(1);
  });
});

describe('finalise', () => {
  it('counts the job it makes terminal by status and outcome, and not again when called again', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'warn' }] }] });
    await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
    await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
    expect(recorded()).toEqual([{ name: 'JobsFinished', dimensions: { status: 'done', outcome: 'warn' } }]);
    expect(metrics.sink.flushes).toBe(2);
  });

  it('gives a job without an outcome the outcome `none`', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, status: 'error', reason: 'The source is empty.', steps: [{ type: 'preflight' }] }] });
    await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
    expect(recorded()).toEqual([{ name: 'JobsFinished', dimensions: { status: 'error', outcome: 'none' } }]);
  });
});
