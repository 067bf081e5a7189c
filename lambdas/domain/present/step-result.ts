/**
 * A step's result entry (lambdas/domain/step-results.ts) as the step stored
 * it: inline on the step record when small, else as JSON in the blob store
 * under `resultKey`. A result that cannot be read is shown as missing (null)
 * rather than failing the whole job response; the failure is logged.
 */
import type { StepRecord } from '../model';
import type { BlobStore } from '../ports';

export async function loadStepResult(step: StepRecord, blobs: BlobStore): Promise<unknown | null> {
  if (step.result !== null && step.result !== undefined) return step.result;
  if (!step.resultKey) return null;
  try {
    const bytes = await blobs.getBytes(step.resultKey);
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'error',
        msg: 'step result not readable',
        jobId: step.jobId,
        stepId: step.id,
        resultKey: step.resultKey,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return null;
  }
}
