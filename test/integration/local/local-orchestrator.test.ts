import { describe, expect, it, vi } from 'vitest';
import { ASL_PLACEHOLDER, WORKERS, type WorkerId } from '../../../step-definitions/workers';
import {
  loadLocalDefinition,
  localFunctionArn,
  readAslDocument,
  substitute,
  taskStates,
} from '../../../lambdas/adapters/local/asl-definition';
import { createLocalOrchestrator, localWorkflowId, type LocalExecutionReport, type LocalOrchestrator } from '../../../lambdas/adapters/local/local-orchestrator';
import { LambdaInvocationError } from '../../../lambdas/adapters/local/lambda-errors';
import type { PipelineInput } from '../../../lambdas/domain/ports';

type Call = { worker: WorkerId; input: Record<string, unknown> };

/** Fake workers: records every call; `behaviour` decides what each returns or throws. */
function fakeWorkers(behaviour: Partial<Record<WorkerId, (input: Record<string, unknown>) => unknown>> = {}) {
  const calls: Call[] = [];
  const invoke = async (worker: WorkerId, input: unknown) => {
    calls.push({ worker, input: input as Record<string, unknown> });
    const b = behaviour[worker];
    if (b) return b(input as Record<string, unknown>);
    if (worker === 'ingest') return { ok: true };
    return {};
  };
  return { calls, invoke };
}

const pipelineInput = (jobId = 'job_01'): PipelineInput => ({
  jobId,
  accountId: 'acct',
  tasks: [
    { taskId: 'task_a', steps: [{ stepId: 'step_a1', type: 'preflight', index: 0 }, { stepId: 'step_a2', type: 'previews', index: 1 }] },
    { taskId: 'task_b', steps: [{ stepId: 'step_b1', type: 'validate', index: 0 }] },
  ],
});

/** The CDK way: CloudFormation Fn::Sub replaces each `${Key}` occurrence textually. */
function cdkLikeSubstitution(text: string): string {
  let out = text;
  for (const w of Object.values(WORKERS)) out = out.split(`\${${ASL_PLACEHOLDER(w)}}`).join(localFunctionArn(w.key));
  return out;
}

describe('ASL placeholder substitution', () => {
  it.each(['job-pipeline', 'job-pipeline-standard', 'webhook-retries'] as const)('fills every function ARN of %s exactly as CDK definitionSubstitutions would', (doc) => {
    const text = readAslDocument(doc);
    const ours = substitute(text, Object.fromEntries(Object.values(WORKERS).map((w) => [ASL_PLACEHOLDER(w), localFunctionArn(w.key)])));
    expect(ours).toBe(cdkLikeSubstitution(text));
    expect(ours).not.toContain('${');
    expect(loadLocalDefinition(doc)).toEqual(JSON.parse(ours));
  });

  it('uses Lambda-style ARNs named after the worker key', () => {
    expect(localFunctionArn('Ingest')).toBe('arn:aws:lambda:us-east-1:000000000000:function:proofline-local-Ingest');
  });

  it('refuses a placeholder that has no substitution, as CloudFormation does', () => {
    expect(() => substitute('{"Resource":"${NopeFunctionArn}"}', {})).toThrow(/NopeFunctionArn/);
  });

  it('keeps ${!Literal} as the literal ${Literal}', () => {
    expect(substitute('a ${!Name} b', {})).toBe('a ${Name} b');
  });

  it('finds every Task state of the pipeline among the WORKERS state names, invoking that worker’s ARN', () => {
    const states = taskStates(loadLocalDefinition('job-pipeline'));
    expect(states.map(([name]) => name).sort()).toEqual(['Autofix', 'Finalise', 'FinishPreviews', 'Ingest', 'IngestFailed', 'Optimize', 'Preflight', 'Previews', 'RenderPreviewBatch', 'StepFailed', 'Validate']);
    for (const [name, resource] of states) {
      const worker = Object.values(WORKERS).find((w) => (w.stateNames as readonly string[]).includes(name))!;
      expect(resource).toBe(localFunctionArn(worker.key));
    }
  });
});

describe('the local orchestrator running the real job pipeline', () => {
  it('ingests each task, runs its steps in order and finalises the job once', async () => {
    const { calls, invoke } = fakeWorkers();
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    const id = await orchestrator.startJob(pipelineInput());
    expect(id).toBe('arn:aws:states:us-east-1:000000000000:execution:proofline-local-pipeline:job_01');
    await orchestrator.whenDone(id);

    const taskA = calls.filter((c) => c.input.taskId === 'task_a').map((c) => c.worker);
    expect(taskA).toEqual(['ingest', 'preflight', 'previews']);
    expect(calls.filter((c) => c.input.taskId === 'task_b').map((c) => c.worker)).toEqual(['ingest', 'validate']);
    expect(calls.filter((c) => c.worker === 'finalise')).toEqual([{ worker: 'finalise', input: { jobId: 'job_01', accountId: 'acct' } }]);
    expect(calls.find((c) => c.worker === 'preflight')!.input).toEqual({
      jobId: 'job_01', accountId: 'acct', taskId: 'task_a', step: { stepId: 'step_a1', type: 'preflight', index: 0 },
    });
    expect(orchestrator.running()).toEqual([]);
  });

  it('maps over the batches a previews step planned, passing each its batch, then finishes the step once', async () => {
    const batches = [1, 2, 3].map((n) => ({ index: n - 1, pages: [n * 2 - 1, n * 2], thumbnail: n === 1 }));
    const { calls, invoke } = fakeWorkers({
      previews: (input) => (input.phase === undefined ? { stepId: 'step_a2', status: 'batched', outcome: null, batches } : { stepId: 'step_a2', status: 'done', outcome: null }),
    });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));

    const previews = calls.filter((c) => c.worker === 'previews').map((c) => c.input);
    const step = { stepId: 'step_a2', type: 'previews', index: 1 };
    expect(previews[0]).toEqual({ jobId: 'job_01', accountId: 'acct', taskId: 'task_a', step });
    expect(previews.filter((i) => i.phase === 'batch').sort((a, b) => (a.batch as { index: number }).index - (b.batch as { index: number }).index)).toEqual(
      batches.map((batch) => ({ jobId: 'job_01', accountId: 'acct', taskId: 'task_a', step, phase: 'batch', batch })),
    );
    expect(previews.at(-1)).toEqual({ jobId: 'job_01', accountId: 'acct', taskId: 'task_a', step, phase: 'finish' });
    expect(previews).toHaveLength(5);
    expect(calls.filter((c) => c.worker === 'recordFailure')).toEqual([]);
    expect(calls.filter((c) => c.worker === 'finalise')).toHaveLength(1);
  });

  it('does not map when the previews step rendered everything itself (or ended in error)', async () => {
    for (const status of ['done', 'error']) {
      const { calls, invoke } = fakeWorkers({ previews: () => ({ stepId: 'step_a2', status, outcome: null }) });
      const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
      await orchestrator.whenDone(await orchestrator.startJob(pipelineInput(`job_${status}`)));
      expect(calls.filter((c) => c.worker === 'previews')).toHaveLength(1);
      expect(calls.filter((c) => c.worker === 'finalise')).toHaveLength(1);
    }
  });

  it('records a failed batch through StepFailed and does not finish the step', async () => {
    const { calls, invoke } = fakeWorkers({
      previews: (input) => {
        if (input.phase === 'batch') throw new Error('canvas exploded');
        return { stepId: 'step_a2', status: 'batched', outcome: null, batches: [{ index: 0, pages: [1], thumbnail: true }] };
      },
    });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));
    expect(calls.filter((c) => c.worker === 'recordFailure').map((c) => c.input)).toEqual([
      expect.objectContaining({ taskId: 'task_a', step: expect.objectContaining({ stepId: 'step_a2' }), failure: expect.objectContaining({ Cause: 'canvas exploded' }) }),
    ]);
    expect(calls.some((c) => c.worker === 'previews' && c.input.phase === 'finish')).toBe(false);
    expect(calls.filter((c) => c.worker === 'finalise')).toHaveLength(1);
  });

  it('records a throwing step through StepFailed with the Lambda-style error, and the task goes on', async () => {
    const { calls, invoke } = fakeWorkers({
      preflight: () => { throw new LambdaInvocationError({ errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 900.00 seconds' }); },
    });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));

    const failed = calls.filter((c) => c.worker === 'recordFailure');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.input).toMatchObject({
      jobId: 'job_01', accountId: 'acct', taskId: 'task_a', step: { stepId: 'step_a1', type: 'preflight' },
      failure: { Error: 'Sandbox.Timedout' },
    });
    expect(JSON.parse((failed[0]!.input.failure as { Cause: string }).Cause)).toEqual({
      errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 900.00 seconds',
    });
    expect(calls.some((c) => c.worker === 'previews' && c.input.taskId === 'task_a')).toBe(true);
    expect(calls.filter((c) => c.worker === 'finalise')).toHaveLength(1);
  });

  it('records a failed ingest through IngestFailed and skips that task’s steps', async () => {
    const { calls, invoke } = fakeWorkers({
      ingest: (input) => { if (input.taskId === 'task_b') throw new Error('download failed'); return { ok: true }; },
    });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));
    const failure = calls.find((c) => c.worker === 'recordFailure')!;
    expect(failure.input).toMatchObject({ taskId: 'task_b', failure: { Error: 'Error', Cause: 'download failed' } });
    expect(failure.input).not.toHaveProperty('step');
    expect(calls.some((c) => c.worker === 'validate')).toBe(false);
    expect(calls.filter((c) => c.worker === 'finalise')).toHaveLength(1);
  });

  it('still finalises when the failure recorder itself throws', async () => {
    const { calls, invoke } = fakeWorkers({
      preflight: () => { throw new Error('boom'); },
      recordFailure: () => { throw new Error('table unavailable'); },
    });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));
    expect(calls.filter((c) => c.worker === 'finalise')).toEqual([{ worker: 'finalise', input: { jobId: 'job_01', accountId: 'acct' } }]);
  });

  it('finalises the job as abandoned when neither kind of execution can run', async () => {
    let orchestrator: LocalOrchestrator;
    const { calls, invoke } = fakeWorkers({ continueJob: async (input) => orchestrator.continueJob(pipelineInput(String(input.jobId))) });
    const broken = () => ({ StartAt: 'Missing', States: {} });
    orchestrator = createLocalOrchestrator({ invoke, log: () => {}, definitions: { express: broken, standard: broken } });
    await orchestrator.whenDone(await orchestrator.startJob(pipelineInput()));
    expect(calls).toEqual([
      { worker: 'continueJob', input: { jobId: 'job_01' } },
      { worker: 'finalise', input: { jobId: 'job_01', accountId: 'acct', abandoned: true } },
    ]);
  });

  it('continues a job in the Standard kind when its Express execution times out, and finalises it once', async () => {
    let orchestrator: LocalOrchestrator;
    let slow = true;
    const reports: LocalExecutionReport[] = [];
    const { calls, invoke } = fakeWorkers({
      // The first attempt outlives the Express limit (1 s here, five minutes in the cloud); the retry is quick.
      preflight: async () => { if (slow) { slow = false; await new Promise((r) => setTimeout(r, 1500)); } return {}; },
      continueJob: async (input) => orchestrator.continueJob(pipelineInput(String(input.jobId))),
    });
    const quickExpress = () => ({ ...loadLocalDefinition('job-pipeline'), TimeoutSeconds: 1 });
    orchestrator = createLocalOrchestrator({ invoke, log: () => {}, definitions: { express: quickExpress }, onExecutionEnded: (r) => reports.push(r) });
    const express = await orchestrator.startJob(pipelineInput());
    await orchestrator.whenDone(express);

    expect(calls.filter((c) => c.worker === 'continueJob')).toEqual([{ worker: 'continueJob', input: { jobId: 'job_01' } }]);
    expect(calls.filter((c) => c.worker === 'finalise')).toEqual([{ worker: 'finalise', input: { jobId: 'job_01', accountId: 'acct' } }]);
    expect(calls.filter((c) => c.worker === 'preflight')).toHaveLength(2);
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    expect(reports.map((r) => [r.kind, r.status])).toEqual([['express', 'failed'], ['standard', 'succeeded']]);
    expect(reports[1]!.workflowId).toBe(localWorkflowId('standard', 'job_01'));
    expect(orchestrator.running()).toEqual([]);
  });

  it('reports the states each execution entered, as Step Functions bills Standard transitions', async () => {
    const reports: LocalExecutionReport[] = [];
    const { invoke } = fakeWorkers();
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {}, onExecutionEnded: (r) => reports.push(r) });
    const oneStep: PipelineInput = { jobId: 'job_02', accountId: 'acct', tasks: [{ taskId: 'task_a', steps: [{ stepId: 'step_a1', type: 'preflight', index: 0 }] }] };
    await orchestrator.whenDone(await orchestrator.startJob(oneStep));
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    // ProcessTasks, Ingest, SourceReady, RunSteps, RouteStep, Preflight, TaskEnded, Finalise.
    expect(reports[0]).toMatchObject({ jobId: 'job_02', kind: 'express', status: 'succeeded', stateTransitions: 8 });
  });

  it('returns the same execution when a running job is started again, and stop aborts it without finalising', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const { calls, invoke } = fakeWorkers({ ingest: async () => { await gate; return { ok: true }; } });
    const orchestrator = createLocalOrchestrator({ invoke, log: () => {} });
    const first = await orchestrator.startJob(pipelineInput());
    expect(await orchestrator.startJob(pipelineInput())).toBe(first);
    expect(orchestrator.running()).toEqual([first]);

    await orchestrator.stop(first);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(orchestrator.running()).toEqual([]);
    expect(calls.filter((c) => c.worker === 'finalise')).toEqual([]);
    expect(calls.filter((c) => c.worker === 'preflight')).toEqual([]);
    await orchestrator.stop(first); // a finished one is not an error
  });
});
