/**
 * Validation in a guarded thread (guarded-engine.ts): the validate step calls
 * this instead of validate() itself, so a hostile or pathological file ends in
 * a task error with a sentence within the budget (VALIDATE_TIMEOUT_SECONDS,
 * default 60 s) and the heap limit (ENGINE_MAX_HEAP_MB). There is no soft
 * deadline: a verdict is given on the whole file or not at all.
 */
import { loadConfig, type RuntimeConfig } from '../../platform/config';
import { validate, type ValidateInput, type ValidateResult } from '../validate';
import { guardedEngine, type EngineLimits } from './guarded-engine';
import { engineLimitsFrom } from './engine-limits';

/** The configured validation limits (VALIDATE_TIMEOUT_SECONDS, ENGINE_*). */
export function validateLimits(config: RuntimeConfig = loadConfig()): Required<EngineLimits> {
  return engineLimitsFrom(config, config.validateTimeoutSeconds);
}

export const validateGuarded: (input: ValidateInput, limits?: EngineLimits) => Promise<ValidateResult> = guardedEngine({
  name: 'validate',
  label: 'Validation',
  task: 'validate',
  moduleUrl: import.meta.url,
  run: validate,
  defaults: () => validateLimits(),
});
