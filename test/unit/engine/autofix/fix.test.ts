import { describe, expect, it } from 'vitest';
import { paramOrThreshold, type FixContext } from '../../../../lambdas/engine/autofix/fix';
import { resolveSettings } from '../../../../lambdas/engine/preflight/settings';

describe('a fix parameter that mirrors a check threshold', () => {
  const settings = resolveSettings('default', { bleed: { required_mm: 5 } });
  const ctx = (explicit: string[] = []): FixContext => ({ order: null, params: { bleed_mm: 2 }, settings, explicit: new Set(explicit) });

  it('is the threshold the check judged by, so the fix resolves what the check found', () => {
    expect(paramOrThreshold(ctx(), 'bleed_mm', 'bleed.insufficient', 'required_mm')).toBe(5);
  });

  it('is the request\'s own value when the request set one', () => {
    expect(paramOrThreshold(ctx(['bleed_mm']), 'bleed_mm', 'bleed.insufficient', 'required_mm')).toBe(2);
  });

  it('is the parameter\'s value without settings (the fix run on its own)', () => {
    expect(paramOrThreshold({ order: null, params: { bleed_mm: 2 } }, 'bleed_mm', 'bleed.insufficient', 'required_mm')).toBe(2);
  });
});
