/**
 * What a batched step (previews of a large document) keeps between its
 * invocations, in the blob store next to its outputs:
 *
 *   <…>/<stepId>/batch-plan.json    written by the planning invocation: how many
 *                                   batches, and what the finishing one needs
 *   <…>/<stepId>/batch-0003.json    written by each batch: the artifacts it
 *                                   stored and its own result
 *
 * Step Functions passes at most 256 KB between states, and a Map's results
 * would all travel back through the execution; keeping them here leaves the
 * state machine carrying only page numbers. The keys are fixed, so a retried
 * batch overwrites its record. The finishing invocation deletes them; files
 * left by a failed step go with the job.
 */
import type { StoredArtifact, StepRecord } from '../domain/model';
import type { BlobStore } from '../domain/ports';
import { stepOutputKey } from '../domain/blob-keys';

type StepRef = Pick<StepRecord, 'id' | 'jobId' | 'taskId'>;

export interface BatchPlanRecord {
  batchCount: number;
  /** The worker's own state for its finishing invocation. */
  carry: unknown;
}

export interface BatchRecord {
  index: number;
  outputs: StoredArtifact[];
  /** The worker's own result of this batch. */
  result: unknown;
}

const PLAN_NAME = 'batch-plan.json';
const batchName = (index: number): string => `batch-${String(index).padStart(4, '0')}.json`;

const keyOf = (accountId: string, step: StepRef, name: string): string => stepOutputKey(accountId, step.jobId, step.taskId, step.id, name);

async function putJson(blobs: BlobStore, key: string, value: unknown): Promise<void> {
  await blobs.putBytes(key, Buffer.from(JSON.stringify(value), 'utf8'), 'application/json');
}

async function getJson<T>(blobs: BlobStore, key: string): Promise<T | null> {
  if (!(await blobs.head(key))) return null;
  return JSON.parse(Buffer.from(await blobs.getBytes(key)).toString('utf8')) as T;
}

export const putBatchPlan = (blobs: BlobStore, accountId: string, step: StepRef, plan: BatchPlanRecord): Promise<void> =>
  putJson(blobs, keyOf(accountId, step, PLAN_NAME), plan);

export const getBatchPlan = (blobs: BlobStore, accountId: string, step: StepRef): Promise<BatchPlanRecord | null> =>
  getJson<BatchPlanRecord>(blobs, keyOf(accountId, step, PLAN_NAME));

export const putBatchRecord = (blobs: BlobStore, accountId: string, step: StepRef, record: BatchRecord): Promise<void> =>
  putJson(blobs, keyOf(accountId, step, batchName(record.index)), record);

export const getBatchRecord = (blobs: BlobStore, accountId: string, step: StepRef, index: number): Promise<BatchRecord | null> =>
  getJson<BatchRecord>(blobs, keyOf(accountId, step, batchName(index)));

/** Best effort: a record left behind is only a small file under the job's prefix. */
export async function deleteBatchRecords(blobs: BlobStore, accountId: string, step: StepRef, batchCount: number): Promise<void> {
  const names = [PLAN_NAME, ...Array.from({ length: batchCount }, (_, i) => batchName(i))];
  await Promise.allSettled(names.map((name) => blobs.delete(keyOf(accountId, step, name))));
}
