/** The thresholds a profile may set, with units and ranges (threshold-specs.ts). */
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_PROFILES } from '../../../../lambdas/engine/profile-catalogue';
import { THRESHOLD_SPECS, thresholdProblem, thresholdSpecsOf } from '../../../../lambdas/engine/preflight/threshold-specs';

describe('threshold specs', () => {
  it('admit every value a built-in profile uses, with the type it has there', () => {
    for (const profile of PREFLIGHT_PROFILES) {
      for (const check of profile.checks) {
        for (const [name, value] of Object.entries(check.thresholds ?? {})) {
          const spec = thresholdSpecsOf(check.id)?.[name];
          expect(spec, `${profile.id} ${check.id} ${name}`).toBeDefined();
          expect(thresholdProblem(spec!, value), `${profile.id} ${check.id} ${name}`).toBeNull();
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

  it('say why a value is refused, with the unit', () => {
    const tac = THRESHOLD_SPECS['colour.tac'].max_percent;
    expect(thresholdProblem(tac, 450)).toBe('must be from 100 to 400 percent');
    expect(thresholdProblem(tac, '240')).toBe('must be a number of percent');
    expect(thresholdProblem(THRESHOLD_SPECS['images.resolution-low'].min_ppi, 299.5)).toBe('must be a whole number of ppi');
    expect(thresholdProblem(THRESHOLD_SPECS['colour.icc-rgb'].allow_images, 1)).toBe('must be true or false');
  });
});
