/**
 * The body of the job.completed webhook (docs/api.md §9): the job's summary fields,
 * `type: "job.completed"` and its tasks with their steps. It carries no
 * presigned URLs — they would expire in the receiver's logs and leak access if
 * the payload were forwarded; a receiver fetches GET /jobs/{id} for links —
 * and no webhook headers. The webhook caller imports `buildWebhookPayload`.
 */
import type { JobGraph, StepRecord, TaskRecord } from '../model';
import { jobSummary, sourceRefOf, type JobSummary } from '../outcomes';
import { plainArtifact, type PlainArtifact } from './artifacts';
import { stepsOfTask } from './job';
import { stepOutputs, type StepOutputsEntry, type WithReportBody } from './step-outputs';

export const WEBHOOK_EVENT_TYPE = 'job.completed';

export interface WebhookStep {
  id: string;
  type: StepRecord['type'];
  status: StepRecord['status'];
  outcome: StepRecord['outcome'];
  reason: string | null;
  /** The step's files, with what its result adds, without URLs (step-outputs.ts). */
  outputs: (WithReportBody<PlainArtifact> | StepOutputsEntry)[];
  ended: string | null;
}

export interface WebhookTask {
  id: string;
  status: TaskRecord['status'];
  outcome: TaskRecord['outcome'];
  mimeType: string | null;
  fileType: TaskRecord['fileType'];
  clientRef: string | null;
  source: string;
  fileRef: string | null;
  /** The task's source object in storage (docs/api.md §11 rule 3). */
  sourceRef: { bucket: string; key: string } | null;
  originalArtifact: PlainArtifact | null;
  outputArtifacts: PlainArtifact[];
  steps: WebhookStep[];
}

export type WebhookPayload = JobSummary & { type: typeof WEBHOOK_EVENT_TYPE; tasks: WebhookTask[] };

function webhookTask(graph: JobGraph, task: TaskRecord): WebhookTask {
  const steps = stepsOfTask(graph, task.id);
  return {
    id: task.id,
    status: task.status,
    outcome: task.outcome,
    mimeType: task.mimeType,
    fileType: task.fileType,
    clientRef: task.clientRef,
    source: task.source,
    fileRef: task.fileRef,
    sourceRef: bucketAndKey(sourceRefOf(task)),
    originalArtifact: task.originalArtifact ? plainArtifact(task.originalArtifact) : null,
    outputArtifacts: steps.flatMap((s) => (s.outputs ?? []).map(plainArtifact)),
    steps: steps.map((s) => ({
      id: s.id,
      type: s.type,
      status: s.status,
      outcome: s.outcome,
      reason: s.reason,
      outputs: webhookStepOutputs(s),
      ended: s.ended,
    })),
  };
}

export function buildWebhookPayload(graph: JobGraph): WebhookPayload {
  return {
    ...jobSummary(graph.job, graph.tasks),
    type: WEBHOOK_EVENT_TYPE,
    tasks: graph.tasks.map((t) => webhookTask(graph, t)),
  };
}

function bucketAndKey(ref: ReturnType<typeof sourceRefOf>): WebhookTask['sourceRef'] {
  return ref ? { bucket: ref.bucket, key: ref.key } : null;
}

/**
 * A step's files as plain artifacts, with what its result adds (step-outputs.ts).
 * The payload is built from the records alone: only a result kept inline on the
 * step is read (a previews or validate result always is; a preflight report,
 * being large, usually is not, so its file goes without the inline counts).
 */
function webhookStepOutputs(step: StepRecord): WebhookStep['outputs'] {
  return stepOutputs(step, (step.outputs ?? []).map(plainArtifact), step.result ?? null);
}
