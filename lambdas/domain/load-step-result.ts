import type { StepRecord } from './model';
import type { BlobStore } from './ports';

/**
 * A step's stored result, wherever it lives: inline on the step record when
 * small, else as JSON in the blob store under `resultKey` (the step runner puts
 * it there when the record's inline limit would be exceeded). Throws when the
 * blob cannot be read; callers decide whether that is fatal.
 */
export async function loadStepResult(blobs: BlobStore, step: Pick<StepRecord, 'result' | 'resultKey'>): Promise<unknown | null> {
  if (step.result !== null && step.result !== undefined) return step.result;
  if (!step.resultKey) return null;
  const bytes = await blobs.getBytes(step.resultKey);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
}
