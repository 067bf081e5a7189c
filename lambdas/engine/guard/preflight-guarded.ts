/**
 * Preflight in a guarded thread (guarded-engine.ts): the step worker and the
 * benchmarks call this instead of preflight() itself, so every file ends in a
 * report or a reason within the budget (PREFLIGHT_TIMEOUT_SECONDS, default 60 s)
 * and the heap limit (ENGINE_MAX_HEAP_MB).
 */
import { loadConfig, type RuntimeConfig } from '../../platform/config';
import { preflight, type PreflightInput, type PreflightResult } from '../preflight';
import { engineLimitsFrom } from './engine-limits';
import { guardedEngine, type EngineLimits, type GuardedEngine } from './guarded-engine';

/** The configured preflight limits (PREFLIGHT_TIMEOUT_SECONDS, ENGINE_*). */
export function preflightLimits(config: RuntimeConfig = loadConfig()): Required<EngineLimits> {
  return engineLimitsFrom(config, config.preflightTimeoutSeconds);
}

export const preflightGuarded: GuardedEngine<PreflightInput, PreflightResult> = guardedEngine({
  name: 'preflight',
  label: 'Preflight',
  task: 'check',
  moduleUrl: import.meta.url,
  run: preflight,
  defaults: () => preflightLimits(),
});
