/**
 * Optimize in a guarded thread (guarded-engine.ts): the optimize step calls
 * this instead of optimize() itself, so a hostile or pathological file ends in
 * a task error with a sentence within the budget (OPTIMIZE_TIMEOUT_SECONDS,
 * default 120 s) and the heap limit (ENGINE_MAX_HEAP_MB), never in a half
 * written output: the step stores the output only when the call resolves.
 */
import { loadConfig, type RuntimeConfig } from '../../platform/config';
import { optimize, type OptimizeInput, type OptimizeResult } from '../optimize';
import { engineLimitsFrom } from './engine-limits';
import { guardedEngine, type EngineLimits } from './guarded-engine';

/** The configured optimize limits (OPTIMIZE_TIMEOUT_SECONDS, ENGINE_*). */
export function optimizeLimits(config: RuntimeConfig = loadConfig()): Required<EngineLimits> {
  return engineLimitsFrom(config, config.optimizeTimeoutSeconds);
}

export const optimizeGuarded: (input: OptimizeInput, limits?: EngineLimits) => Promise<OptimizeResult> = guardedEngine({
  name: 'optimize',
  label: 'Optimizing',
  task: 'optimize',
  moduleUrl: import.meta.url,
  run: optimize,
  defaults: () => optimizeLimits(),
});
