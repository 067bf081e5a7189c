/**
 * The invocations after a step deferred its work into batches (step-runner.ts,
 * StepDeferral): the state machine maps over the batches (state
 * RenderPreviewBatch, input `{ …, phase: 'batch', batch }`), in parallel, then
 * calls the finishing invocation once (state FinishPreviews, `phase: 'finish'`).
 *
 * A batch stores its outputs under the step's fixed keys and records what it
 * stored (batch-records.ts); the finishing invocation gathers every batch's
 * record and moves the step to `done` exactly as a one-invocation step does.
 * Both work only while the step is `running`: once it has failed (another
 * batch found the file unprocessable, a timeout was recorded) or the job was
 * deleted, they return without doing anything. Failures are handled as in
 * runStep: an unprocessable file ends the step and task in `error`; anything
 * else is recorded and rethrown, so the Map's Catch reaches StepFailed.
 */
import type { StoredArtifact } from '../domain/model';
import { deleteBatchRecords, getBatchPlan, getBatchRecord, putBatchRecord } from './batch-records';
import { withScratchDir } from './scratch-dir';
import type { InvocationContext } from './step-budget';
import {
  budgetOf,
  completeStep,
  failingStepOnError,
  loadInvokedStep,
  type InvokedStep,
  storeOutputs,
  type StepInvocation,
  type StepOutputFile,
  type StepRunSummary,
  type StepWorker,
  type StepWorkInput,
  type StepWorkResult,
} from './step-runner';
import { stepInput } from './step-input';

export interface BatchInvocation extends StepInvocation {
  phase: 'batch';
  batch: unknown;
}

export interface FinishInvocation extends StepInvocation {
  phase: 'finish';
}

export interface BatchDone<R> {
  index: number;
  outputs: StoredArtifact[];
  result: R;
}

export interface BatchedStepWorker<B extends { index: number }, R> extends StepWorker {
  /** Reads the state machine's batch item; throws on anything that is not one of this worker's batches. */
  readBatch(raw: unknown): B;
  runBatch(input: StepWorkInput, batch: B): Promise<{ outputs: StepOutputFile[]; result: R }>;
  /** The step's result from the plan's carry and every batch, in batch order; `outputs` in the order to record them. */
  finish(carry: unknown, batches: BatchDone<R>[]): Omit<StepWorkResult, 'outputs'> & { outputs: StoredArtifact[] };
}

/** The step of the invocation if it is still running; otherwise the summary to return. */
async function runningStep(event: StepInvocation, workerName: string, phase: string): Promise<InvokedStep | StepRunSummary> {
  const found = await loadInvokedStep(event, `${workerName}.${phase}`);
  if (!('s' in found)) return found;
  const { step, task, log } = found;
  if (step.status !== 'running' || task.status !== 'running') {
    log(`not-running-${step.status}`, step.outcome);
    return { stepId: step.id, status: step.status, outcome: step.outcome };
  }
  return found;
}

export async function runStepBatch<B extends { index: number }, R>(event: BatchInvocation, worker: BatchedStepWorker<B, R>, context?: InvocationContext): Promise<StepRunSummary> {
  const budget = budgetOf(worker.name, context);
  const batch = worker.readBatch(event.batch);
  const found = await runningStep(event, worker.name, `batch-${batch.index}`);
  if (!('s' in found)) return found;
  const { s, graph, task, step, log } = found;
  return failingStepOnError(s, step, log, () =>
    withScratchDir(worker.name, async (workDir) => {
      const { inputFile, input } = stepInput(s, graph, task, step, workDir, budget);
      const fileType = task.fileType ?? 'other';
      const done = await worker.runBatch({ services: s, graph, job: graph.job, task, step, fileType, inputFile, input, workDir, budget }, batch);
      const stored = await storeOutputs(s, graph.job.accountId, step, done.outputs, budget);
      await putBatchRecord(s.blobs, graph.job.accountId, step, { index: batch.index, outputs: stored.artifacts, result: done.result });
      log('batch-done');
      return { stepId: step.id, status: 'batch-done', outcome: null };
    }),
  );
}

export async function finishBatchedStep<B extends { index: number }, R>(event: FinishInvocation, worker: BatchedStepWorker<B, R>): Promise<StepRunSummary> {
  const found = await runningStep(event, worker.name, 'finish');
  if (!('s' in found)) return found;
  const { s, graph, step, log } = found;
  const accountId = graph.job.accountId;
  return failingStepOnError(s, step, log, async () => {
    const plan = await getBatchPlan(s.blobs, accountId, step);
    if (!plan) throw new Error(`step ${step.id} has no batch plan`);
    const records = await Promise.all(Array.from({ length: plan.batchCount }, (_, i) => getBatchRecord(s.blobs, accountId, step, i)));
    const lost = records.flatMap((r, i) => (r ? [] : [i]));
    if (lost.length > 0) throw new Error(`step ${step.id}: batches ${lost.join(', ')} left no record`);
    const batches = records.map((r) => ({ index: r!.index, outputs: r!.outputs, result: r!.result as R }));
    const { outputs, ...work } = worker.finish(plan.carry, batches);
    const done = await completeStep(s, accountId, step, work, { artifacts: outputs, newCurrentFile: null }, worker.name);
    if (done) await deleteBatchRecords(s.blobs, accountId, step, plan.batchCount);
    log(done ? 'done' : 'moved-on', done?.outcome ?? null);
    return { stepId: step.id, status: done ? 'done' : 'moved-on', outcome: done?.outcome ?? null };
  });
}
