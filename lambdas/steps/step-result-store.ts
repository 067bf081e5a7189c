/**
 * Where a step's result lives. Small results stay inline on the step record; a
 * large one (the preflight report of a 500-page PDF) goes to the blob store as
 * `<…>/<stepId>/result.json` with `resultKey` pointing at it, because the job
 * store refuses results over its inline limit (a DynamoDB item holds 400 KB).
 * Readers go through `loadStepResult` (domain/load-step-result.ts) and do not care which it was.
 */
import type { StepRecord } from '../domain/model';
import type { BlobStore } from '../domain/ports';
import { stepOutputKey } from '../domain/blob-keys';
import { fitsInline } from '../adapters/aws/inline-result-limit';

export const RESULT_FILE_NAME = 'result.json';

export interface PlacedResult {
  result: unknown | null;
  resultKey: string | null;
}

export async function placeStepResult(
  blobs: BlobStore,
  accountId: string,
  step: Pick<StepRecord, 'id' | 'jobId' | 'taskId'>,
  result: unknown,
): Promise<PlacedResult> {
  if (fitsInline(result)) return { result: result ?? null, resultKey: null };
  const key = stepOutputKey(accountId, step.jobId, step.taskId, step.id, RESULT_FILE_NAME);
  await blobs.putBytes(key, Buffer.from(JSON.stringify(result), 'utf8'), 'application/json');
  return { result: null, resultKey: key };
}
