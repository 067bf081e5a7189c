/**
 * A step's result for a job response: read with the domain's loadStepResult,
 * but a result that cannot be read is shown as missing (null) rather than
 * failing the whole job response; the failure is logged.
 */
import type { StepRecord } from '../model';
import type { BlobStore } from '../ports';
import { loadStepResult } from '../load-step-result';
import { asError, logger } from '../../observability/logger';

export async function loadStepResultOrNull(step: StepRecord, blobs: BlobStore): Promise<unknown | null> {
  try {
    return await loadStepResult(blobs, step);
  } catch (error) {
    logger.error({ message: 'step result not readable', jobId: step.jobId, taskId: step.taskId, stepId: step.id, resultKey: step.resultKey }, asError(error));
    return null;
  }
}

/** Reads a step's result at most once per presentation (the outputs and `results` both need it). */
export type StepResultLoader = (step: StepRecord) => Promise<unknown | null>;

export function stepResultLoader(blobs: BlobStore): StepResultLoader {
  const seen = new Map<string, Promise<unknown | null>>();
  return (step) => {
    let loading = seen.get(step.id);
    if (!loading) seen.set(step.id, (loading = loadStepResultOrNull(step, blobs)));
    return loading;
  };
}
