import { describe, expect, it } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { handler as recordFailure } from '../../../lambdas/steps/record-failure';
import { reasonFromFailure } from '../../../lambdas/steps/failure-reasons';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

const lambdaCause = (errorType: string, errorMessage: string) =>
  JSON.stringify({ errorType, errorMessage, trace: [`${errorType}: ${errorMessage}`, '    at run (/var/task/index.mjs:1:2)'] });

describe('failure reasons', () => {
  it('names a timeout with the seconds the failure states, else the worker\'s timeout', () => {
    expect(reasonFromFailure({ Error: 'Sandbox.Timedout', Cause: lambdaCause('Sandbox.Timedout', 'Task timed out after 900.05 seconds') }, 'preflight')).toBe(
      'The preflight step did not finish within 900 s.',
    );
    expect(reasonFromFailure({ Error: 'States.Timeout', Cause: '' }, 'previews')).toBe('The previews step did not finish within 900 s.');
    expect(reasonFromFailure({ Error: 'States.Timeout' }, 'ingest')).toBe('The source could not be retrieved within 300 s.');
  });

  it('says when a step ran out of memory', () => {
    expect(reasonFromFailure({ Error: 'Runtime.OutOfMemory', Cause: lambdaCause('Runtime.OutOfMemory', 'Runtime exited with error: signal: killed') }, 'autofix')).toBe(
      'The autofix step ran out of memory.',
    );
  });

  it('passes an unprocessable file\'s message through as it is', () => {
    expect(reasonFromFailure({ Error: 'UnprocessableFileError', Cause: lambdaCause('UnprocessableFileError', 'The file is encrypted and needs a password.') }, 'validate')).toBe(
      'The file is encrypted and needs a password.',
    );
  });

  it('names anything else by its error name only: no message, no stack, no paths', () => {
    const reason = reasonFromFailure({ Error: 'TypeError', Cause: lambdaCause('TypeError', "Cannot read properties of undefined (reading 'x') at /var/task/x.js") }, 'preflight');
    expect(reason).toBe('The preflight step failed unexpectedly (TypeError).');
    expect(reasonFromFailure({ Error: 'Lambda.Unknown', Cause: 'The cause could not be determined' }, 'ingest')).toBe('The source could not be retrieved (Lambda.Unknown).');
    expect(reasonFromFailure({ Error: 'weird name with spaces\n at x.ts:1', Cause: 12 }, 'previews')).toBe('The previews step failed unexpectedly (Error).');
    expect(reasonFromFailure(undefined, 'validate')).toBe('The validate step failed unexpectedly (Error).');
  });
});

describe('record-failure', () => {
  const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
  const bytes = new Uint8Array([37, 80, 68, 70]);

  it('marks the running step and its task error with a reason made from the failure, and audits both', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'previews', status: 'running' }] }] });
    const { step, ...rest } = stepEvent(graph, 0, 0);
    await expect(recordFailure({ ...rest, step, failure: { Error: 'States.Timeout', Cause: 'Task timed out' } })).resolves.toEqual({ stepFailed: true, taskFailed: true });
    const { task, steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'error', reason: 'The previews step did not finish within 900 s.' });
    expect(steps[0]!.ended).toBeTruthy();
    expect(task).toMatchObject({ status: 'error', reason: 'The previews step did not finish within 900 s.' });
    expect(audit.map((a) => a.event)).toEqual(['step.failed', 'task.failed']);
  });

  it('keeps the reason a worker already recorded (the worker rethrew after recording it)', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes, ingested: pdf, status: 'error', reason: 'The autofix step failed unexpectedly (RangeError).', steps: [{ type: 'autofix', status: 'error', reason: 'The autofix step failed unexpectedly (RangeError).' }] }],
    });
    const event = { ...stepEvent(graph, 0, 0), failure: { Error: 'RangeError', Cause: lambdaCause('RangeError', 'Invalid array length') } };
    await expect(recordFailure(event)).resolves.toEqual({ stepFailed: false, taskFailed: false });
    await expect(recordFailure(event)).resolves.toEqual({ stepFailed: false, taskFailed: false });
    const { task, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(task.reason).toBe('The autofix step failed unexpectedly (RangeError).');
    expect(audit).toEqual([]);
  });

  it('records an ingest failure on the task as a source failure', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ locator: { kind: 'url', url: 'http://127.0.0.1:9/a.pdf' }, steps: [{ type: 'preflight' }] }] });
    const { jobId, accountId, taskId } = stepEvent(graph, 0, 0);
    await recordFailure({ jobId, accountId, taskId, failure: { Error: 'Sandbox.Timedout', Cause: lambdaCause('Sandbox.Timedout', 'Task timed out after 300.00 seconds') } });
    const { task, steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(task).toMatchObject({ status: 'error', reason: 'The source could not be retrieved within 300 s.' });
    expect(steps[0]!.status).toBe('pending');
    expect(audit.map((a) => a.event)).toEqual(['source.failed']);
  });

  it('leaves a step that had already finished alone, and its task too', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }] }] });
    await expect(recordFailure({ ...stepEvent(graph, 0, 0), failure: { Error: 'Lambda.Unknown' } })).resolves.toEqual({ stepFailed: false, taskFailed: false });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'done', outcome: 'pass' });
    expect(task.status).toBe('running');
  });

  it('records the pipeline\'s unknown-step failure in words', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'validate' }] }] });
    await recordFailure({ ...stepEvent(graph, 0, 0), failure: { Error: 'UnknownStepType', Cause: 'The pipeline has no worker for this step type.' } });
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]).toMatchObject({ status: 'error', reason: 'The pipeline has no worker for the validate step.' });
  });
});
