/**
 * The verdict rules of docs/api.md §2, in one place: how steps make a task's outcome,
 * tasks a job's status and outcome, and the policy a job's `canProceed`.
 * Pure functions over records; the finaliser and the review use case apply them.
 */
import { STEP_CATALOGUE } from '../../step-definitions/catalogue';
import type { CheckVerdict, JobRecord, OnFail, Outcome, Review, Status, StepRecord, StepType, TaskRecord } from './model';

const SEVERITY: Record<CheckVerdict, number> = { pass: 0, warn: 1, fail: 2 };
const PREFLIGHT_FAMILY: readonly StepType[] = ['preflight', 'repreflight'];

/** A step type whose verdict counts towards the task's outcome (the catalogue's `check`). */
export const isCheckStep = (type: StepType): boolean => STEP_CATALOGUE[type].check;

export function worstVerdict(verdicts: CheckVerdict[]): CheckVerdict | null {
  if (verdicts.length === 0) return null;
  return verdicts.reduce((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a));
}

/**
 * A finished task's outcome: the verdict of its check steps that ran, where a
 * repreflight supersedes the preflight before it and several check steps combine
 * as the worst of them; `na` when no check step ran. Steps are in index order.
 */
export function taskOutcome(steps: StepRecord[]): Outcome {
  const ran = steps.filter((s) => s.status === 'done' && isCheckStep(s.type) && isVerdict(s.outcome));
  const lastPreflight = [...ran].reverse().find((s) => PREFLIGHT_FAMILY.includes(s.type));
  const counted = ran.filter((s) => !PREFLIGHT_FAMILY.includes(s.type) || s === lastPreflight);
  return worstVerdict(counted.map((s) => s.outcome as CheckVerdict)) ?? 'na';
}

function isVerdict(o: Outcome | null): o is CheckVerdict {
  return o === 'pass' || o === 'warn' || o === 'fail';
}

/** A terminal job's status: `error` only when every task is `error`, else `done`. */
export function jobStatus(tasks: Pick<TaskRecord, 'status'>[]): Status {
  return tasks.length > 0 && tasks.every((t) => t.status === 'error') ? 'error' : 'done';
}

/**
 * The outcome the tasks share, else `mixed`; null when every task is in error.
 * A task in error (outcome null) disagrees with any task that has an outcome, so
 * one failed download among passing files makes the job `mixed`, which sends a
 * client that reads only `outcome` to look at the tasks.
 */
export function jobOutcome(tasks: Pick<TaskRecord, 'status' | 'outcome'>[]): Outcome | null {
  if (tasks.every((t) => t.status === 'error')) return null;
  const first = tasks[0]?.outcome ?? null;
  return tasks.every((t) => (t.outcome ?? null) === first) ? first : 'mixed';
}

/** The fulfilment gate of §2. */
export function canProceed(
  onFail: OnFail,
  tasks: Pick<TaskRecord, 'status' | 'outcome'>[],
  review: Pick<Review, 'decision'> | null,
): boolean {
  const anyError = tasks.some((t) => t.status === 'error');
  const anyFail = tasks.some((t) => t.outcome === 'fail');
  switch (onFail) {
    case 'reject':
      return !anyError && !anyFail;
    case 'accept_with_warnings':
      return !anyError;
    case 'manual_review':
      if (anyError || review?.decision === 'reject') return false;
      return anyFail ? review?.decision === 'approve' : true;
  }
}

/** The contract's `summary` of a terminal job (§4), also the body of the webhook (§9). */
export interface JobSummary {
  id: string;
  status: Status;
  outcome: Outcome | null;
  canProceed: boolean | null;
  ruleId: string | null;
  channel: JobRecord['channel'];
  customerId: string | null;
  orderId: string | null;
  policy: JobRecord['policy'];
  metaData: Record<string, unknown> | null;
  taskIds: string[];
  /** Each task's source object in storage, once ingest stored it (docs/api.md §11 rule 3). */
  sourceRefs: SourceRef[];
  /** Epoch milliseconds. */
  created: number;
  /** When the job became terminal, ISO 8601 (docs/api.md §11 rule 3). */
  finalized: string | null;
  /** The original service's tenant index; means nothing here (docs/api.md §11 rule 1). */
  domainIdx: null;
}

export interface SourceRef {
  taskId: string;
  bucket: string;
  key: string;
}

/** Where a task's source file is stored: its original artifact, once ingest stored it. */
export function sourceRefOf(task: TaskRecord): SourceRef | null {
  return task.originalArtifact ? { taskId: task.id, bucket: task.originalArtifact.bucket, key: task.originalArtifact.key } : null;
}

export function jobSummary(job: JobRecord, tasks: readonly TaskRecord[]): JobSummary {
  return {
    id: job.id,
    status: job.status,
    outcome: job.outcome,
    canProceed: job.canProceed,
    ruleId: job.ruleId,
    channel: job.channel,
    customerId: job.customerId,
    orderId: job.orderId,
    policy: job.policy,
    metaData: job.metaData,
    taskIds: job.taskIds,
    sourceRefs: tasks.map(sourceRefOf).filter((r): r is SourceRef => r !== null),
    created: Date.parse(job.createdAt),
    finalized: job.finalizedAt,
    domainIdx: null,
  };
}
