/**
 * The shape every step worker shares (states Preflight, Autofix, Validate,
 * Previews; input `{ jobId, accountId, taskId, step: { stepId, type, index } }`).
 * A worker only says how its engine turns the input file into a result; this
 * runner decides whether the step runs at all, moves it through its statuses,
 * moves files between storage and a private /tmp directory, stores outputs under
 * fixed keys and records the audit trail.
 *
 * Retries are safe: a terminal step is left as it is; a step found `running` (an
 * attempt that died) is run again and overwrites the same keys; every status
 * change is a conditional write that loses quietly when the record moved on.
 * A task is never left `running` by a failed step: an unprocessable file ends the
 * step and task in `error` and returns normally; an unexpected exception is
 * recorded the same way and rethrown so Step Functions sees it too.
 *
 * A worker may defer instead of finishing (StepDeferral: previews of many
 * pages): the step stays `running`, the state machine maps over the batches it
 * returns, and batched-step.ts finishes the step with the same helpers.
 *
 * Every phase runs inside the invocation's budget (step-budget.ts), so a step
 * ends with what it has, or with a sentence, before the worker's own timeout:
 * the input must be downloaded and the worker's work done by the budget's
 * work deadline (workers give their engines what is left of it), and the
 * outputs stored by its store deadline. An optional output (a proof image)
 * not stored by then is left out and the audit sentence says so; a required
 * one ends the step in `error` with a sentence.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileType, JobGraph, JobRecord, Outcome, StepRecord, StoredArtifact, TaskRecord } from '../domain/model';
import { isTerminal, replacesTaskFile } from '../domain/model';
import { UnprocessableFileError } from '../domain/errors';
import { stepOutputKey } from '../domain/blob-keys';
import { iso } from '../domain/ids';
import { services } from '../platform/services';
import { flushMetrics, recordMetric } from '../platform/observability/metrics';
import type { Services } from '../domain/ports';
import { acceptsFileType, skipReason, type StepWorkerId } from '../../step-definitions/catalogue';
import { findStep, findTask, inputFileOf } from './task-graph';
import { discardFilesOfDeletedJob } from './deleted-job';
import { audit, EARLIER_STEP_FAILED, failStepAndTask, skipStep } from './task-records';
import { placeStepResult } from './step-result-store';
import { putBatchPlan } from './batch-records';
import { unexpectedStepReason } from './failure-reasons';
import { withScratchDir } from './scratch-dir';
import { elapsedSince, logInvocation, type InvocationFailure } from './invocation-log';
import { splitFileName } from '../domain/file-names';
import { WORKERS } from '../../step-definitions/workers';
import { invocationBudget, seconds, within, type InvocationContext, type StepBudget } from './step-budget';
import { stepInput, type StepInputFile } from './step-input';
import type { CorrelationKeys } from '../observability/logger';
import { withInvocationLog } from '../observability/invocation';

export interface StepInvocation {
  jobId: string;
  accountId: string;
  taskId: string;
  step: { stepId: string; type: string; index: number };
}

export interface StepWorkInput {
  services: Services;
  graph: JobGraph;
  job: JobRecord;
  task: TaskRecord;
  step: StepRecord;
  /** Accepted by this step type (the runner skipped the step otherwise). */
  fileType: FileType;
  /** The file the step works on, as the preceding steps left it. */
  inputFile: StoredArtifact;
  /** That file: downloaded when the worker asks (`input.local()`), or read in ranges (`input.read`). */
  input: StepInputFile;
  /** A private directory for outputs; removed after the step. */
  workDir: string;
  /** The invocation's time: the work must be done by `budget.workDeadline`. */
  budget: StepBudget;
}

export interface StepOutputFile {
  /** The local file to store. */
  path: string;
  /** Its name under the step's key prefix: fixed per output, so a re-run overwrites. */
  keyName: string;
  /** An output whose role is one of TASK_FILE_ROLES (domain/model.ts) is the task's file from now on. */
  artifact: Omit<StoredArtifact, 'bucket' | 'key' | 'sizeBytes'>;
  /**
   * An extra (a proof image): left out, and said so in the audit sentence,
   * when the time for storing outputs runs out, instead of failing the step.
   */
  optional?: boolean;
}

export interface StepWorkResult {
  outcome: Outcome;
  /** The step result of lambdas/domain/step-results.ts for this type. */
  result: unknown;
  runtimeParams: Record<string, unknown>;
  outputs: StepOutputFile[];
  /** One sentence for the audit log ("… finished: fail, 2 errors, 1 warning."). */
  summary: string;
}

/**
 * The step goes on in further invocations (previews' batches): it stays
 * `running`, and the state machine gets `batches` to map over
 * (lambdas/steps/batched-step.ts finishes it).
 */
export interface StepDeferral {
  deferred: true;
  /** Each handed to one batch invocation; keep them small (page numbers), Step Functions carries them. */
  batches: unknown[];
  /** Kept in the blob store for the finishing invocation (batch-records.ts). */
  carry: unknown;
}

export interface StepWorker {
  name: StepWorkerId;
  run(input: StepWorkInput): Promise<StepWorkResult | StepDeferral>;
}

export interface StepRunSummary {
  stepId: string;
  /** done, error, skipped, moved-on, missing, already-<status>; `batched` with `batches` after a deferral. */
  status: string;
  outcome: Outcome | null;
  batches?: unknown[];
}

type InvocationLog = (result: string, outcome?: Outcome | null, failure?: InvocationFailure) => void;

export interface InvokedStep {
  s: Services;
  graph: JobGraph;
  task: TaskRecord;
  step: StepRecord;
  log: InvocationLog;
}

/** The records an invocation names, and its log line writer; the `missing` summary when the job or step is gone. */
export async function loadInvokedStep(event: StepInvocation, logName: string): Promise<InvokedStep | StepRunSummary> {
  const startedAt = Date.now();
  const stepId = typeof event.step?.stepId === 'string' ? event.step.stepId : undefined;
  const log: InvocationLog = (result, outcome, failure) =>
    logInvocation({ worker: logName, jobId: event.jobId, accountId: event.accountId, taskId: event.taskId, stepId, result, outcome, durationMs: elapsedSince(startedAt), ...failure });
  const s = services();
  const graph = await s.jobs.getGraphById(event.jobId);
  const task = graph ? findTask(graph, event.taskId) : undefined;
  const step = graph && task ? findStep(graph, task.id, event.step ?? {}) : undefined;
  if (!graph || !task || !step) {
    log('missing');
    return { stepId: stepId ?? '', status: 'missing', outcome: null };
  }
  return { s, graph, task, step, log };
}

/** The ids a step invocation's log lines carry. */
export const stepLogKeys = (event: StepInvocation): CorrelationKeys => ({
  jobId: event.jobId,
  accountId: event.accountId,
  taskId: event.taskId,
  stepId: typeof event.step?.stepId === 'string' ? event.step.stepId : undefined,
});

/** A step worker's Lambda handler: the invocation logged and traced (withInvocationLog), the step run by runStep. */
export function stepHandler(worker: StepWorker): (event: StepInvocation, context?: InvocationContext) => Promise<StepRunSummary> {
  return (event, context) => withInvocationLog(context, stepLogKeys(event), () => runStep(event, worker, context));
}

/** The budget of an invocation of `worker`, from the Lambda context or the worker's timeout. */
export function budgetOf(worker: StepWorkerId, context?: InvocationContext): StepBudget {
  return invocationBudget(context, WORKERS[worker].timeoutSeconds * 1000);
}

export async function runStep(event: StepInvocation, worker: StepWorker, context?: InvocationContext): Promise<StepRunSummary> {
  const budget = budgetOf(worker.name, context);
  const found = await loadInvokedStep(event, worker.name);
  if (!('s' in found)) return found;
  const { s, graph, task, step, log } = found;
  const summary = (status: string, outcome: Outcome | null = null): StepRunSummary => ({ stepId: step.id, status, outcome });

  if (isTerminal(step.status)) {
    log(`already-${step.status}`, step.outcome);
    return summary(step.status, step.outcome);
  }
  if (task.status !== 'running') {
    // `error`: an earlier step (or the source) failed. A finished task cannot
    // have a pending step (the finaliser skips them), but skipping is right there too.
    await skipStep(s, step, EARLIER_STEP_FAILED);
    log('skipped');
    return summary('skipped');
  }
  const fileType = task.fileType ?? 'other';
  if (!acceptsFileType(step.type, fileType)) {
    await skipStep(s, step, skipReason(step.type, fileType));
    log('skipped');
    return summary('skipped');
  }

  const started = await startStep(s, step);
  if (!started) {
    log('moved-on');
    return summary('moved-on');
  }
  return failingStepOnError(s, started, log, async () => {
    const done = await withScratchDir(worker.name, (workDir) => execute(s, graph, task, started, worker, workDir, budget));
    if (done && 'batches' in done) {
      log('batched');
      return { ...summary('batched'), batches: done.batches };
    }
    log(done ? 'done' : 'moved-on', done?.outcome ?? null);
    return summary(done ? 'done' : 'moved-on', done?.outcome ?? null);
  });
}

/**
 * Runs a step's work. An unprocessable file ends the step and task in `error`
 * and returns normally; anything else is recorded the same way and rethrown.
 * Every invocation that works on a step passes here, so the step's metrics
 * (StepDuration, StepErrors, UnreadableFiles) are published here when it ends.
 */
export async function failingStepOnError(
  s: Services,
  step: StepRecord,
  log: InvocationLog,
  work: () => Promise<StepRunSummary>,
): Promise<StepRunSummary> {
  try {
    return await work();
  } catch (err) {
    if (isUnprocessable(err)) {
      await failStepAndTask(s, step, err.message);
      recordMetric('unreadableFiles', { stage: step.type });
      recordMetric('stepErrors', { reasonClass: 'unprocessable' });
      log('error', null, { reason: err.message, error: err });
      return { stepId: step.id, status: 'error', outcome: null };
    }
    const reason = unexpectedStepReason(step.type, err);
    try {
      await failStepAndTask(s, step, reason);
      // Counted here only once recorded: otherwise StepFailed records the failure and counts it.
      recordMetric('stepErrors', { reasonClass: 'unexpected' });
    } catch {
      /* StepFailed records it when the store answers again */
    }
    log('error', null, { reason, error: err });
    throw err;
  } finally {
    flushMetrics();
  }
}

/** By name as well: a worker thread or bundle may hold its own copy of the class. */
function isUnprocessable(err: unknown): err is Error {
  return err instanceof UnprocessableFileError || (err instanceof Error && err.name === 'UnprocessableFileError');
}

/** pending → running; a step already `running` is an earlier attempt that died, run again. */
async function startStep(s: Services, step: StepRecord): Promise<StepRecord | null> {
  if (step.status === 'running') {
    await audit(s, step.jobId, step.taskId, 'step.retried', `The ${step.type} step is run again after an interrupted attempt.`, step.id);
    return step;
  }
  const startedIso = iso(s.clock.now());
  const ok = await s.jobs.transitionStep(step.jobId, step.id, ['pending'], 'running', { started: startedIso });
  if (!ok) return null;
  await audit(s, step.jobId, step.taskId, 'step.started', `The ${step.type} step started.`, step.id);
  return { ...step, status: 'running', started: startedIso };
}

async function execute(
  s: Services,
  graph: JobGraph,
  task: TaskRecord,
  step: StepRecord,
  worker: StepWorker,
  workDir: string,
  budget: StepBudget,
): Promise<{ outcome: Outcome } | { batches: unknown[] } | null> {
  const { inputFile, input } = stepInput(s, graph, task, step, workDir, budget);
  const work = await worker.run({ services: s, graph, job: graph.job, task, step, fileType: task.fileType ?? 'other', inputFile, input, workDir, budget });
  if ('deferred' in work) {
    await putBatchPlan(s.blobs, graph.job.accountId, step, { batchCount: work.batches.length, carry: work.carry });
    return { batches: work.batches };
  }
  const stored = await storeOutputs(s, graph.job.accountId, step, work.outputs, budget);
  return completeStep(s, graph.job.accountId, step, { ...work, summary: withStorageNote(work.summary, stored.left) }, stored, worker.name);
}

export interface StoredOutputs {
  artifacts: StoredArtifact[];
  /** The output that becomes the task's file from now on, if any. */
  newCurrentFile: StoredArtifact | null;
  /** Optional outputs left out because the time for storing ran out. */
  left?: { outputs: StepOutputFile[]; withinMs: number };
}

/**
 * Puts each output under the step's fixed keys (a re-run overwrites), in order,
 * by the budget's store deadline: past it the optional outputs not yet stored
 * are left out, and a required one ends the step with a sentence. An upload
 * abandoned at the deadline may still land; no record points at it, and it
 * goes with the job's other files.
 */
export async function storeOutputs(s: Services, accountId: string, step: StepRecord, outputs: StepOutputFile[], budget?: StepBudget): Promise<StoredOutputs> {
  const artifacts: StoredArtifact[] = [];
  let newCurrentFile: StoredArtifact | null = null;
  const left: StepOutputFile[] = [];
  const withinMs = budget ? Math.max(0, budget.storeDeadline - budget.now()) : Infinity;
  for (const output of outputs) {
    if (left.length > 0 && output.optional) {
      left.push(output);
      continue;
    }
    const key = stepOutputKey(accountId, step.jobId, step.taskId, step.id, output.keyName);
    const { size } = await stat(output.path);
    const put = s.blobs.putFile(key, output.path, output.artifact.mimeType);
    const stored = budget ? await within(put, budget.storeDeadline, budget.now) : { done: true as const, value: await put };
    if (!stored.done) {
      if (!output.optional) throw new UnprocessableFileError(storingSentence(withinMs));
      left.push(output);
      continue;
    }
    const artifact: StoredArtifact = { ...output.artifact, bucket: s.blobs.bucket, key, sizeBytes: size };
    artifacts.push(artifact);
    if (replacesTaskFile(artifact)) newCurrentFile = artifact;
  }
  return { artifacts, newCurrentFile, ...(left.length > 0 ? { left: { outputs: left, withinMs } } : {}) };
}

function storingSentence(withinMs: number): string {
  return `The step's results could not be stored within ${seconds(withinMs)} s. Send the file again; if this happens again, split it into smaller files.`;
}

/** The audit sentence, with a clause for optional outputs left out ("…; 3 proof images were not stored: …"). */
export function withStorageNote(summary: string, left: StoredOutputs['left']): string {
  if (!left || left.outputs.length === 0) return summary;
  const n = left.outputs.length;
  const noun = left.outputs.every((o) => o.artifact.role === 'proof') ? 'proof image' : 'extra output';
  return `${summary.replace(/\.$/, '')}; ${n} ${noun}${n === 1 ? ' was' : 's were'} not stored: storing did not finish within ${seconds(left.withinMs)} s.`;
}

/** running → done with the work's outcome, result and stored outputs; null when the record had moved on. */
export async function completeStep(
  s: Services,
  accountId: string,
  step: StepRecord,
  work: Omit<StepWorkResult, 'outputs'>,
  stored: StoredOutputs,
  workerName: StepWorkerId,
): Promise<{ outcome: Outcome } | null> {
  const placed = await placeStepResult(s.blobs, accountId, step, work.result);
  const ended = s.clock.now();
  const duration = step.started ? Math.max(0, ended.getTime() - Date.parse(step.started)) : null;
  const finished = await s.jobs.transitionStep(step.jobId, step.id, ['running'], 'done', {
    outcome: work.outcome,
    outputs: stored.artifacts,
    runtimeParams: work.runtimeParams,
    result: placed.result,
    resultKey: placed.resultKey,
    ended: iso(ended),
    duration,
    reason: null,
  });
  // Lost to a failure recorded meanwhile (a timeout's StepFailed, an abandoned
  // job's finaliser): that record stands; the files written are orphans under the
  // job's prefix and go when the job is deleted. Lost because the job WAS deleted:
  // nothing will delete them later, so they go now.
  if (!finished) {
    await discardFilesOfDeletedJob(s, accountId, step.jobId);
    return null;
  }
  if (duration !== null) recordMetric('stepDuration', { stepType: step.type }, duration);
  // The step is done whatever happens next: a failure of these bookkeeping writes
  // must not turn it into a task error. Later steps derive their input from the
  // finished steps (task-graph.ts) and the finaliser re-syncs currentFile.
  try {
    if (stored.newCurrentFile) await s.jobs.patchTask(step.jobId, step.taskId, { currentFile: stored.newCurrentFile });
    await audit(s, step.jobId, step.taskId, 'step.finished', work.summary, step.id);
  } catch (err) {
    logInvocation({ worker: workerName, jobId: step.jobId, accountId, taskId: step.taskId, stepId: step.id, result: 'bookkeeping-failed', durationMs: 0, error: err });
  }
  return { outcome: work.outcome };
}
