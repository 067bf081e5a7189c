/**
 * JobGraph → the contract's Job JSON (docs/api.md §4). Derived fields are computed
 * here, never stored: a task's outputArtifacts are its steps' outputs, the
 * job's deliverables its tasks' final files, and a terminal job's summary and
 * results come from its records. Webhook headers are never shown (they may
 * carry the receiver's secrets); deliveries are.
 */
import { isTerminal, type AuditEntry, type JobGraph, type JobRecord, type StepRecord, type TaskRecord } from '../model';
import { jobSummary, type JobSummary } from '../outcomes';
import { presentArtifact, presentArtifacts, type PresentDeps, type PresentedArtifact } from './artifacts';
import { buildResults, type JobResults } from './results';
import { stepResultLoader, type StepResultLoader } from './step-result';
import { outputsNeedResult, stepOutputs, type StepOutputsEntry, type WithReportBody } from './step-outputs';
import { jobProgress, taskProgress, type Progress } from './progress';

export interface PresentedStep {
  id: string;
  type: StepRecord['type'];
  status: StepRecord['status'];
  outcome: StepRecord['outcome'];
  reason: string | null;
  params: Record<string, unknown>;
  runtimeParams: Record<string, unknown> | null;
  started: string | null;
  ended: string | null;
  duration: number | null;
  /** The original service's stream flag; means nothing here (docs/api.md §11 rule 1). */
  inStream: null;
  /** The step's files, with what its result adds for the existing clients (step-outputs.ts). */
  outputs: (WithReportBody<PresentedArtifact> | StepOutputsEntry)[];
}

export interface PresentedTask {
  id: string;
  createdAt: string;
  updatedAt: string;
  status: TaskRecord['status'];
  outcome: TaskRecord['outcome'];
  fileType: TaskRecord['fileType'];
  mimeType: string | null;
  source: string;
  name: string | null;
  fileRef: string | null;
  clientRef: string | null;
  jobId: string;
  /** The original service's workflow fields; they mean nothing here (docs/api.md §11 rule 1). */
  wfKind: null;
  wfPhase: null;
  originalArtifact: PresentedArtifact | null;
  /** The file the task started from (the original, once stored). */
  inputArtifact: PresentedArtifact | null;
  /** The file as the task's last step left it: the fixed or optimized file, else the original. */
  currentArtifact: PresentedArtifact | null;
  outputArtifacts: PresentedArtifact[];
  /** Absent in the lean entries of GET /jobs?preview=true. */
  steps?: PresentedStep[];
  audit: AuditEntry[];
  /** How far the task has got (progress.ts); in lean entries too. */
  progress: Progress;
  /** Why the task is in error; present only then. */
  reason?: string;
}

export interface PresentedJob {
  id: string;
  createdAt: string;
  modifiedAt: string;
  status: JobRecord['status'];
  outcome: JobRecord['outcome'];
  canProceed: boolean | null;
  ruleId: string | null;
  workflowId: string | null;
  /** The original service's workflow and order fields; they mean nothing here (docs/api.md §11 rule 1). */
  wfPhase: null;
  wfStreamStatus: null;
  orderStatus: null;
  orderDetails: null;
  /** When retention deletes the job and its files (domain/retention.ts); null on a job created before retention (docs/api.md §11 rule 1). */
  expiresAt: string | null;
  channel: JobRecord['channel'];
  metaData: Record<string, unknown> | null;
  tasks: PresentedTask[];
  orderId: string | null;
  customerId: string | null;
  customerEmail: string | null;
  policy: JobRecord['policy'];
  /** Each finished task's final file, with the task it belongs to (docs/api.md §11 rule 4). */
  deliverables: Deliverable[];
  /** How far the job has got, over all its tasks (progress.ts). */
  progress: Progress;
  context?: NonNullable<JobRecord['context']>;
  webhook?: { url: string; deliveries: NonNullable<JobRecord['webhook']>['deliveries'] };
  review?: NonNullable<JobRecord['review']>;
  /** The customer's decision on the shared proof page (docs/api.md §3, Share links), once made. */
  approval?: NonNullable<JobRecord['approval']>;
  summary?: JobSummary;
  results?: JobResults;
}

export interface PresentOptions {
  /** GET /jobs?preview=true: no steps on tasks, no summary or results. */
  lean?: boolean;
}

export function stepsOfTask(graph: JobGraph, taskId: string): StepRecord[] {
  return graph.steps.filter((s) => s.taskId === taskId).sort((a, b) => a.index - b.index);
}

async function presentStep(step: StepRecord, deps: PresentDeps, results: StepResultLoader): Promise<PresentedStep> {
  const [files, result] = await Promise.all([presentArtifacts(step.outputs ?? [], deps), outputsNeedResult(step) ? results(step) : Promise.resolve(null)]);
  const outputs = stepOutputs(step, files, result);
  return {
    id: step.id,
    type: step.type,
    status: step.status,
    outcome: step.outcome,
    reason: step.reason,
    params: step.params ?? {},
    runtimeParams: step.runtimeParams,
    started: step.started,
    ended: step.ended,
    duration: step.duration,
    inStream: null,
    outputs,
  };
}

async function presentTask(graph: JobGraph, task: TaskRecord, deps: PresentDeps, lean: boolean, results: StepResultLoader): Promise<PresentedTask> {
  const steps = stepsOfTask(graph, task.id);
  const [originalArtifact, currentArtifact, outputArtifacts, presentedSteps] = await Promise.all([
    task.originalArtifact ? presentArtifact(task.originalArtifact, deps) : Promise.resolve(null),
    task.currentFile ? presentArtifact(task.currentFile, deps) : Promise.resolve(null),
    presentArtifacts(steps.flatMap((s) => s.outputs ?? []), deps),
    lean ? Promise.resolve(undefined) : Promise.all(steps.map((s) => presentStep(s, deps, results))),
  ]);
  const out: PresentedTask = {
    id: task.id,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    status: task.status,
    outcome: task.outcome,
    fileType: task.fileType,
    mimeType: task.mimeType,
    source: task.source,
    name: task.name,
    fileRef: task.fileRef,
    clientRef: task.clientRef,
    jobId: task.jobId,
    wfKind: null,
    wfPhase: null,
    originalArtifact,
    inputArtifact: originalArtifact,
    currentArtifact,
    outputArtifacts,
    ...(presentedSteps ? { steps: presentedSteps } : {}),
    audit: graph.audit[task.id] ?? [],
    progress: taskProgress(task, steps),
  };
  if (task.status === 'error') out.reason = task.reason ?? 'The file could not be processed.';
  return out;
}

/** A task's final file, when it finished: the fixed or optimized file when a step replaced it (TASK_FILE_ROLES), else the original. */
export function finalFileOf(task: TaskRecord): TaskRecord['currentFile'] {
  return task.status === 'done' ? task.currentFile : null;
}

export type Deliverable = { taskId: string } & PresentedArtifact;

export async function presentJob(graph: JobGraph, deps: PresentDeps, options: PresentOptions = {}): Promise<PresentedJob> {
  const { job } = graph;
  const lean = options.lean === true;
  const terminal = isTerminal(job.status);
  const finished = graph.tasks.flatMap((t) => {
    const file = finalFileOf(t);
    return file ? [{ taskId: t.id, file }] : [];
  });
  // Each step's result is read once, for its outputs and for `results` alike.
  const results = stepResultLoader(deps.blobs);
  const [tasks, deliverables, jobResults] = await Promise.all([
    Promise.all(graph.tasks.map((t) => presentTask(graph, t, deps, lean, results))),
    Promise.all(finished.map(async ({ taskId, file }): Promise<Deliverable> => ({ taskId, ...(await presentArtifact(file, deps)) }))),
    terminal && !lean ? buildResults(graph.steps, graph.tasks, deps, results) : Promise.resolve(undefined),
  ]);
  const out: PresentedJob = {
    id: job.id,
    createdAt: job.createdAt,
    modifiedAt: job.modifiedAt,
    status: job.status,
    outcome: job.outcome,
    canProceed: job.canProceed,
    ruleId: job.ruleId,
    workflowId: job.workflowId,
    wfPhase: null,
    wfStreamStatus: null,
    orderStatus: null,
    orderDetails: null,
    expiresAt: job.expiresAt ?? null,
    channel: job.channel,
    metaData: job.metaData,
    tasks,
    orderId: job.orderId,
    customerId: job.customerId,
    customerEmail: job.customerEmail,
    policy: job.policy,
    deliverables,
    progress: jobProgress(job, tasks.map((t) => t.progress)),
  };
  if (job.context) out.context = job.context;
  if (job.webhook) out.webhook = { url: job.webhook.url, deliveries: job.webhook.deliveries ?? [] };
  if (job.review) out.review = job.review;
  if (job.approval) out.approval = { decision: job.approval.decision, note: job.approval.note, at: job.approval.at };
  if (terminal && !lean) {
    out.summary = jobSummary(job, graph.tasks);
    out.results = jobResults;
  }
  return out;
}
