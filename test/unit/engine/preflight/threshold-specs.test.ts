/** The thresholds a profile may set, with units and ranges (threshold-specs.ts). */
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_PROFILES } from '../../../../lambdas/engine/profile-catalogue';
import { THRESHOLD_SPECS, thresholdSpecsOf, type ThresholdSpec } from '../../../../lambdas/engine/preflight/threshold-specs';

/** Whether a built-in's value is one the spec admits. */
const admits = (spec: ThresholdSpec, value: unknown): boolean =>
  spec.type === 'boolean' ? typeof value === 'boolean' : typeof value === 'number' && value >= spec.min && value <= spec.max && (!spec.integer || Number.isInteger(value));

describe('threshold specs', () => {
  it('admit every value a built-in profile uses, with the type it has there', () => {
    for (const profile of PREFLIGHT_PROFILES) {
      for (const check of profile.checks) {
        for (const [name, value] of Object.entries(check.thresholds ?? {})) {
          const spec = thresholdSpecsOf(check.id)?.[name];
          expect(spec, `${profile.id} ${check.id} ${name}`).toBeDefined();
          expect(admits(spec!, value), `${profile.id} ${check.id} ${name}`).toBe(true);
        }
      }
    }
  });

  it('give each number a unit and a range with its bounds in order', () => {
    for (const specs of Object.values(THRESHOLD_SPECS)) {
      for (const spec of Object.values(specs as Record<string, { type: string; unit: string; min?: number; max?: number }>)) {
        if (spec.type === 'boolean') expect(spec.unit).toBe('boolean');
        else expect(spec.min!).toBeLessThan(spec.max!);
      }
    }
  });

  it('leave out what the order context sets', () => {
    expect(thresholdSpecsOf('document.page-count')).toBeUndefined();
    expect(thresholdSpecsOf('safety.live-content')).toBeUndefined();
    expect(Object.keys(thresholdSpecsOf('artwork.size-mismatch')!)).toEqual(['tolerance_mm']);
  });
});
