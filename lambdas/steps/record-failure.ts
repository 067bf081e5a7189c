/**
 * RecordFailure (states `IngestFailed` and `StepFailed`): a Task state failed as
 * a whole (timeout, out of memory, a crash, or a worker's rethrown exception) and
 * its Catch sends `{ jobId, accountId, taskId, step?, failure: { Error, Cause } }`.
 * Marks the step (if given and not yet terminal) and the task `error` with a
 * reason made from the failure. Idempotent with what a worker already wrote: the
 * transitions are conditional, so an earlier, more specific reason stays.
 */
import '../platform/polyfills';
import type { Context } from 'aws-lambda';
import type { StepType } from '../domain/model';
import { isTerminal } from '../domain/model';
import { services } from '../platform/services';
import { findStep, findTask } from './task-graph';
import { failStep, failTask } from './task-records';
import { failureClass, reasonFromFailure, type StateFailure } from './failure-reasons';
import { recordMetric, withMetricsFlushed } from '../platform/observability/metrics';
import { elapsedSince, logInvocation } from './invocation-log';
import { withInvocationLog } from '../observability/invocation';

export interface RecordFailureInput {
  jobId: string;
  accountId: string;
  taskId: string;
  step?: { stepId?: string; type?: string; index?: number };
  failure?: StateFailure;
}

export interface RecordFailureOutput {
  stepFailed: boolean;
  taskFailed: boolean;
}

export function handler(event: RecordFailureInput, context?: Partial<Context>): Promise<RecordFailureOutput> {
  const keys = { jobId: event.jobId, accountId: event.accountId, taskId: event.taskId, stepId: event.step?.stepId };
  const startedAt = Date.now();
  return withInvocationLog(context, keys, async () => {
    try {
      return await withMetricsFlushed(() => recordFailure(event));
    } catch (err) {
      // The failure could not be recorded (the store did not answer): Step Functions retries; the operator sees why.
      logInvocation({ worker: 'record-failure', ...keys, result: 'failed', durationMs: elapsedSince(startedAt), error: err });
      throw err;
    }
  });
}

async function recordFailure(event: RecordFailureInput): Promise<RecordFailureOutput> {
  const startedAt = Date.now();
  const s = services();
  const graph = await s.jobs.getGraphById(event.jobId);
  const task = graph ? findTask(graph, event.taskId) : undefined;
  const log = (result: string, stepId?: string): void =>
    logInvocation({ worker: 'record-failure', jobId: event.jobId, accountId: event.accountId, taskId: event.taskId, stepId, result, durationMs: elapsedSince(startedAt) });
  if (!graph || !task) {
    log('missing');
    return { stepFailed: false, taskFailed: false };
  }

  if (!event.step) {
    // Ingest failed: the task never got its source.
    const taskFailed = await failTask(s, graph.job.id, task.id, reasonFromFailure(event.failure, 'ingest'), 'source.failed');
    log(taskFailed ? 'task-failed' : 'already-terminal');
    return { stepFailed: false, taskFailed };
  }

  const step = findStep(graph, task.id, event.step);
  const type = (step?.type ?? event.step.type ?? 'preflight') as StepType;
  const reason = reasonFromFailure(event.failure, type);
  if (step && isTerminal(step.status) && step.status !== 'error') {
    // The step finished (done or skipped) before its function failed: its result
    // stands and is no reason to fail the task.
    log(`step-already-${step.status}`, step.id);
    return { stepFailed: false, taskFailed: false };
  }
  const stepFailed = step ? await failStep(s, step, reason) : false;
  // Only a failure this call recorded: a worker that recorded its own has counted it.
  if (stepFailed) recordMetric('stepErrors', { reasonClass: failureClass(event.failure) });
  const taskFailed = await failTask(s, graph.job.id, task.id, reason);
  log(stepFailed || taskFailed ? 'recorded' : 'already-terminal', step?.id);
  return { stepFailed, taskFailed };
}
