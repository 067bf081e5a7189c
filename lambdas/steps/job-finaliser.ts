/**
 * Makes a job terminal, exactly once (docs/api.md §2: once terminal, nothing changes).
 *
 * Every task is closed first: steps left `pending` are skipped with why, a step
 * left `running` (its worker is gone) is an error, and the task ends `error` if
 * it or a step failed or its work was interrupted, else `done` with the verdict
 * of its check steps. The job's status, outcome and canProceed follow from the
 * tasks (domain/outcomes.ts) and are written by one conditional transition.
 *
 * The terminal event (webhooks hang off it) is published only by the call that
 * won that transition, AFTER it, and `eventPublishedAt` records that it went
 * out. If publishing fails this throws, Step Functions retries, and the retry —
 * finding the job terminal without `eventPublishedAt` — publishes again; so a
 * terminal job never silently lacks its event. Delivery is at least once (a crash
 * between publishing and recording it republishes); the webhook caller tolerates
 * a repeated event.
 */
import type { JobGraph, JobRecord, Outcome, Status, StepRecord, TaskRecord } from '../domain/model';
import { isTerminal } from '../domain/model';
import { canProceed, jobOutcome, jobStatus, taskOutcome } from '../domain/outcomes';
import { iso } from '../domain/ids';
import type { Services } from '../domain/ports';
import { fileAfterSteps, stepsOfTask } from './task-graph';
import { audit, EARLIER_STEP_FAILED, failStep, failTask, skipStep } from './task-records';

export const INTERRUPTED_TASK = 'Processing was interrupted before this file was finished.';
export const NOT_RUN_INTERRUPTED = 'Not run: processing was interrupted before this step.';
export const NOT_RUN_NO_SOURCE = 'Not run: the source file could not be retrieved or read.';
export const interruptedStepReason = (step: Pick<StepRecord, 'type'>): string => `The ${step.type} step was interrupted before it finished.`;

export type FinaliseResult =
  | { result: 'missing' }
  | { result: 'already-terminal'; status: Status }
  | { result: 'republished'; status: Status }
  | { result: 'finalised'; status: Status; outcome: Outcome | null; canProceed: boolean }
  | { result: 'lost-race' };

type Deps = Pick<Services, 'jobs' | 'events' | 'clock'>;

export async function finaliseJob(s: Deps, jobId: string): Promise<FinaliseResult> {
  const before = await s.jobs.getGraphById(jobId);
  if (!before) return { result: 'missing' };
  if (isTerminal(before.job.status)) {
    if (before.job.eventPublishedAt) return { result: 'already-terminal', status: before.job.status };
    await publishTerminal(s, before.job, before.job.modifiedAt);
    return { result: 'republished', status: before.job.status };
  }

  for (const task of before.tasks) await closeTask(s, before, task);

  const after = await s.jobs.getGraphById(jobId);
  if (!after) return { result: 'missing' };
  const open = after.tasks.filter((t) => !isTerminal(t.status));
  // A write lost to something else changing the task; the retry sees the outcome.
  if (open.length > 0) throw new Error(`tasks still open after closing: ${open.map((t) => t.id).join(', ')}`);

  const { job, tasks } = after;
  const status = jobStatus(tasks);
  const outcome = jobOutcome(tasks);
  const proceed = canProceed(job.policy.onFail, tasks, job.review);
  const finalizedAt = iso(s.clock.now());
  const won = await s.jobs.transitionJob(job.id, ['pending', 'running'], status, {
    outcome,
    canProceed: proceed,
    finalizedAt,
    modifiedAt: finalizedAt,
  });
  if (!won) return { result: 'lost-race' };
  await publishTerminal(s, { ...job, status, outcome }, finalizedAt);
  return { result: 'finalised', status, outcome, canProceed: proceed };
}

async function publishTerminal(s: Deps, job: JobRecord, modifiedAt: string): Promise<void> {
  await s.events.publishJobTerminal({
    jobId: job.id,
    accountId: job.accountId,
    status: job.status,
    outcome: job.outcome,
    hasWebhook: Boolean(job.webhook?.url),
  });
  // modifiedAt kept: recording the publication is not a change of the job.
  await s.jobs.patchJob(job.id, { eventPublishedAt: iso(s.clock.now()), modifiedAt });
}

/** Ends every step and the task itself; records already terminal are left as they are. */
async function closeTask(s: Deps, graph: JobGraph, task: TaskRecord): Promise<void> {
  const steps = stepsOfTask(graph, task.id);
  const failedStep = steps.find((st) => st.status === 'error');
  const sourceFailed = task.status === 'error' && !task.originalArtifact;
  const taskFailed = task.status === 'error' || failedStep !== undefined;
  // Workers end every step they are given; an unfinished step, or a task that
  // never got its source, means the execution stopped part-way.
  const interrupted = !isTerminal(task.status) && (!task.originalArtifact || steps.some((st) => !isTerminal(st.status)));

  for (const step of steps) {
    if (step.status === 'running') {
      await failStep(s, step, interruptedStepReason(step));
    } else if (step.status === 'pending') {
      await skipStep(s, step, sourceFailed ? NOT_RUN_NO_SOURCE : taskFailed ? EARLIER_STEP_FAILED : NOT_RUN_INTERRUPTED);
    }
  }
  if (isTerminal(task.status)) return;

  if (failedStep) {
    await failTask(s, task.jobId, task.id, failedStep.reason ?? `The ${failedStep.type} step failed.`);
  } else if (interrupted) {
    await failTask(s, task.jobId, task.id, INTERRUPTED_TASK, task.originalArtifact ? 'task.failed' : 'source.failed');
  } else {
    const outcome = taskOutcome(steps);
    const finished = await s.jobs.transitionTask(task.jobId, task.id, ['running'], 'done', {
      outcome,
      currentFile: fileAfterSteps(task, steps),
      reason: null,
    });
    if (finished) await audit(s, task.jobId, task.id, 'task.finished', `The task finished with outcome ${outcome}.`);
  }
}
