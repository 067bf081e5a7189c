/**
 * Builds job graphs for the pipeline worker tests by writing records through the
 * real JobStore (createJob) and source bytes through the real BlobStore, the way
 * the API leaves them after a submission — optionally already ingested, so a step
 * worker can be tested on its own.
 */
import type {
  FileType,
  JobGraph,
  JobRecord,
  OnFail,
  Outcome,
  SourceLocator,
  Status,
  StepRecord,
  StepType,
  StoredArtifact,
  TaskRecord,
} from '../../../../lambdas/domain/model';
import type { Services } from '../../../../lambdas/domain/ports';
import { sourceKey } from '../../../../lambdas/domain/blob-keys';
import { iso } from '../../../../lambdas/domain/ids';
import type { StepInvocation } from '../../../../lambdas/steps/step-runner';

export interface StepSpec {
  type: StepType;
  params?: Record<string, unknown>;
  status?: Status;
  outcome?: Outcome | null;
  reason?: string | null;
  runtimeParams?: Record<string, unknown> | null;
  result?: unknown;
  outputs?: StoredArtifact[];
}

export interface TaskSpec {
  steps: StepSpec[];
  name?: string | null;
  /** Bytes written as a base64-`file` source (an inline locator). */
  bytes?: Uint8Array;
  /** Any other locator (url, upload). */
  locator?: SourceLocator;
  /** Start the task as if ingest had run: running, with this type and the bytes as its file. */
  ingested?: { fileType: FileType; mimeType: string };
  status?: Status;
  outcome?: Outcome | null;
  reason?: string | null;
}

export interface JobSpec {
  accountId?: string;
  onFail?: OnFail;
  webhook?: boolean;
  status?: Status;
  tasks: TaskSpec[];
}

export async function createTestJob(s: Services, spec: JobSpec): Promise<JobGraph> {
  const accountId = spec.accountId ?? 'acct_test';
  const jobId = s.ids.next('job');
  const now = iso(s.clock.now());
  const tasks: TaskRecord[] = [];
  const steps: StepRecord[] = [];

  for (const t of spec.tasks) {
    const taskId = s.ids.next('task');
    const name = t.name === undefined ? 'card.pdf' : t.name;
    let locator: SourceLocator;
    let original: StoredArtifact | null = null;
    if (t.bytes) {
      const key = sourceKey(accountId, jobId, taskId, name ?? 'file');
      await s.blobs.putBytes(key, t.bytes, 'application/octet-stream');
      locator = { kind: 'inline', key, sizeBytes: t.bytes.length };
      if (t.ingested) {
        original = { kind: 'file', role: 'source', bucket: s.blobs.bucket, key, mimeType: t.ingested.mimeType, sizeBytes: t.bytes.length, fileName: name ?? 'file' };
      }
    } else {
      locator = t.locator ?? { kind: 'inline', key: `${accountId}/nowhere`, sizeBytes: 1 };
    }
    const stepRecords = t.steps.map<StepRecord>((st, index) => ({
      id: s.ids.next('step'),
      jobId,
      taskId,
      index,
      type: st.type,
      status: st.status ?? 'pending',
      outcome: st.outcome ?? null,
      reason: st.reason ?? null,
      params: st.params ?? {},
      runtimeParams: st.runtimeParams ?? null,
      started: st.status && st.status !== 'pending' ? now : null,
      ended: st.status === 'done' || st.status === 'error' ? now : null,
      duration: st.status === 'done' || st.status === 'error' ? 0 : null,
      outputs: st.outputs ?? [],
      result: st.result ?? null,
      resultKey: null,
    }));
    steps.push(...stepRecords);
    tasks.push({
      id: taskId,
      jobId,
      accountId,
      createdAt: now,
      updatedAt: now,
      status: t.status ?? (t.ingested ? 'running' : 'pending'),
      outcome: t.outcome ?? null,
      reason: t.reason ?? null,
      fileType: t.ingested?.fileType ?? null,
      mimeType: t.ingested?.mimeType ?? null,
      source: locator.kind === 'url' ? locator.url : (name ?? 'file'),
      locator,
      fileRef: locator.kind === 'upload' ? locator.uploadId : null,
      clientRef: null,
      name,
      originalArtifact: original,
      currentFile: original,
      stepIds: stepRecords.map((st) => st.id),
    });
  }

  const job: JobRecord = {
    id: jobId,
    accountId,
    keyId: 'key_test',
    endpoint: 'jobs',
    createdAt: now,
    modifiedAt: now,
    status: spec.status ?? (spec.tasks.some((t) => t.ingested) ? 'running' : 'pending'),
    outcome: null,
    canProceed: null,
    ruleId: null,
    workflowId: `local:${jobId}`,
    channel: 'api',
    metaData: null,
    orderId: null,
    customerId: null,
    customerEmail: null,
    policy: { onFail: spec.onFail ?? 'reject' },
    context: null,
    webhook: spec.webhook ? { url: 'https://hooks.example.test/proofline', deliveries: [] } : null,
    review: null,
    taskIds: tasks.map((t) => t.id),
    finalizedAt: null,
  };
  await s.jobs.createJob({ job, tasks, steps });
  return (await s.jobs.getGraphById(jobId))!;
}

/** The execution input a step state receives for the task's n-th step. */
export function stepEvent(graph: JobGraph, taskIndex: number, stepIndex: number): StepInvocation {
  const task = graph.tasks[taskIndex]!;
  const step = graph.steps.filter((s) => s.taskId === task.id).sort((a, b) => a.index - b.index)[stepIndex]!;
  return { jobId: graph.job.id, accountId: graph.job.accountId, taskId: task.id, step: { stepId: step.id, type: step.type, index: step.index } };
}

/** Reloads the graph and returns task n with its steps in order. */
export async function reload(s: Services, jobId: string): Promise<JobGraph> {
  const graph = await s.jobs.getGraphById(jobId);
  if (!graph) throw new Error(`job ${jobId} is gone`);
  return graph;
}

export function taskView(graph: JobGraph, taskIndex: number): { task: TaskRecord; steps: StepRecord[]; audit: JobGraph['audit'][string] } {
  const task = graph.tasks[taskIndex]!;
  return {
    task,
    steps: graph.steps.filter((s) => s.taskId === task.id).sort((a, b) => a.index - b.index),
    audit: graph.audit[task.id] ?? [],
  };
}
