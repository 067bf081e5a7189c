/**
 * The writes every worker makes to a task's records: audit entries, and the
 * conditional transitions that fail or skip a step and fail a task. Each is a
 * conditional write from a non-terminal status, so a retried worker, the failure
 * recorder and the finaliser can all call these for the same record and the first
 * one wins: a terminal record is never rewritten and its audit entry never doubled.
 */
import type { AuditEvent, StepRecord } from '../domain/model';
import { iso } from '../domain/ids';
import type { Services } from '../domain/ports';

type Deps = Pick<Services, 'jobs' | 'clock'>;

/** Why a step after a failed one did not run. */
export const EARLIER_STEP_FAILED = 'Not run: an earlier step of this task failed.';

export async function audit(
  s: Deps,
  jobId: string,
  taskId: string,
  event: AuditEvent,
  message: string,
  stepId?: string,
): Promise<void> {
  const at = iso(s.clock.now());
  await s.jobs.appendAudit(jobId, taskId, stepId === undefined ? { at, event, message } : { at, event, stepId, message });
}

/** pending/running → error, with `ended` and (when it had started) `duration`. */
export async function failStep(s: Deps, step: Pick<StepRecord, 'id' | 'jobId' | 'taskId' | 'started'>, reason: string): Promise<boolean> {
  const now = s.clock.now();
  const duration = step.started ? Math.max(0, now.getTime() - Date.parse(step.started)) : null;
  const failed = await s.jobs.transitionStep(step.jobId, step.id, ['pending', 'running'], 'error', {
    reason,
    ended: iso(now),
    duration,
  });
  if (failed) await audit(s, step.jobId, step.taskId, 'step.failed', reason, step.id);
  return failed;
}

/**
 * pending/running → error. The first reason recorded stays: it names the cause.
 * A source that could not be had is logged as `source.failed` (the task never
 * started), anything later as `task.failed`.
 */
export async function failTask(
  s: Deps,
  jobId: string,
  taskId: string,
  reason: string,
  event: 'task.failed' | 'source.failed' = 'task.failed',
): Promise<boolean> {
  const failed = await s.jobs.transitionTask(jobId, taskId, ['pending', 'running'], 'error', { reason, outcome: null });
  if (failed) await audit(s, jobId, taskId, event, reason);
  return failed;
}

/** A step that fails makes its task fail with the same reason (docs/api.md §2). */
export async function failStepAndTask(
  s: Deps,
  step: Pick<StepRecord, 'id' | 'jobId' | 'taskId' | 'started'>,
  reason: string,
): Promise<void> {
  await failStep(s, step, reason);
  await failTask(s, step.jobId, step.taskId, reason);
}

/** pending → skipped with why; `running` is not skipped: it was started and must end as done or error. */
export async function skipStep(s: Deps, step: Pick<StepRecord, 'id' | 'jobId' | 'taskId'>, reason: string): Promise<boolean> {
  // No started/ended: a skipped step never ran.
  const skipped = await s.jobs.transitionStep(step.jobId, step.id, ['pending'], 'skipped', { reason });
  if (skipped) await audit(s, step.jobId, step.taskId, 'step.skipped', reason, step.id);
  return skipped;
}
