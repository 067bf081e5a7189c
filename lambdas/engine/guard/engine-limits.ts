/**
 * The limits configuration gives a guarded engine. Kept apart from the
 * engines' own modules: a Lambda bundle includes what it imports, and the
 * validate function must not pull in preflight (and its native image library).
 */
import type { RuntimeConfig } from '../../platform/config';
import type { EngineLimits } from './guarded-engine';

/** The limits configuration gives an engine, with its own budget in seconds. */
export function engineLimitsFrom(config: RuntimeConfig, timeoutSeconds: number): Required<EngineLimits> {
  return {
    timeoutMs: timeoutSeconds * 1000,
    maxHeapMb: config.engineMaxHeapMb,
    maxStreamDecodedMb: config.engineMaxStreamMb,
    maxDocumentDecodedMb: config.engineMaxDecodedMb,
  };
}
