import { describe, expect, it } from 'vitest';
import { VALIDATE_PROFILE_CODES } from '../../../step-definitions/catalogue';
import { findFix, findPreflightProfile, FIXES, fixOrder, fixParams, paramProblem, PREFLIGHT_PROFILES, VALIDATE_PROFILES } from '../../../lambdas/engine/profile-catalogue';
import { FIX_IMPLEMENTATIONS } from '../../../lambdas/engine/autofix/registry';
import { PDF_MESSAGES } from '../../../lambdas/engine/preflight/pdf-checks';
import { RASTER_MESSAGES } from '../../../lambdas/engine/preflight/raster';

describe('engine catalogue', () => {
  it('lists the preflight profiles: default, the GWG 2022 print profiles and screen', () => {
    expect(PREFLIGHT_PROFILES.map((p) => p.id)).toEqual(['default', 'gwg-sheetfed-cmyk', 'gwg-digital-print', 'gwg-web-cmyk', 'gwg-newspaper', 'screen']);
    for (const p of PREFLIGHT_PROFILES) expect(findPreflightProfile(p.id)?.name).toBeTruthy();
    expect(findPreflightProfile('nope')).toBeUndefined();
  });

  it('describes every validate code of the step catalogue, each with the machine-checkable requirements of its standard covered', () => {
    expect(VALIDATE_PROFILES.map((p) => p.code)).toEqual([...VALIDATE_PROFILE_CODES]);
    for (const p of VALIDATE_PROFILES) {
      expect(p.coverage).toBe('complete');
      expect(p.description).not.toMatch(/subset|never confirms/);
    }
  });

  it('has a customer message for every check of every profile', () => {
    for (const profile of PREFLIGHT_PROFILES) {
      for (const check of profile.checks) {
        expect(PDF_MESSAGES[check.id] ?? RASTER_MESSAGES[check.id], check.id).toBeTypeOf('function');
      }
    }
  });

  it('offers fixes only for checks whose findings they resolve', () => {
    const normalize = findFix('boxes.normalize')!;
    expect(normalize.resolves).toEqual(['boxes.trimbox-missing', 'boxes.bleedbox-outside-mediabox', 'boxes.inconsistent', 'bleed.insufficient']);
    expect(findFix('actions.remove')!.resolves).toEqual(['document.javascript']);
  });

  it('only offers fixes that exist and only resolves checks that exist', () => {
    const checkIds = new Set(PREFLIGHT_PROFILES.flatMap((p) => p.checks.map((c) => c.id)));
    for (const profile of PREFLIGHT_PROFILES) for (const fixId of profile.defaultFixes) expect(findFix(fixId), fixId).toBeDefined();
    for (const fix of FIXES) for (const checkId of fix.resolves) expect(checkIds.has(checkId), checkId).toBe(true);
  });

  it('describes exactly the fixes the engine implements, each id once', () => {
    expect(FIXES.map((f) => f.id).sort()).toEqual(Object.keys(FIX_IMPLEMENTATIONS).sort());
    expect(new Set(FIXES.map((f) => f.id)).size).toBe(FIXES.length);
  });

  it('gives every fix parameter a default it accepts, and says what each is', () => {
    for (const f of FIXES) {
      for (const p of f.params) {
        expect(paramProblem(p, p.default), `${f.id}.${p.name}`).toBeNull();
        expect(p.description.length, `${f.id}.${p.name}`).toBeGreaterThan(10);
      }
    }
  });

  it('fills fix parameters from defaults and keeps only given values of the right type and range', () => {
    const spec = { id: 'x.y', name: 'X', description: 'X', resolves: [], appearance: 'none' as const, params: [
      { name: 'ppi', type: 'number' as const, default: 300, min: 72, max: 1200, description: 'target resolution in ppi' },
      { name: 'uri', type: 'boolean' as const, default: false, description: 'also remove URI actions' },
      { name: 'mode', type: 'string' as const, default: 'a', values: ['a', 'b'], description: 'which mode to use' },
    ] };
    expect(fixParams(spec, undefined)).toEqual({ ppi: 300, uri: false, mode: 'a' });
    expect(fixParams(spec, { ppi: 150, uri: true, mode: 'b' })).toEqual({ ppi: 150, uri: true, mode: 'b' });
    expect(fixParams(spec, { ppi: 10, uri: 'yes', mode: 'c' })).toEqual({ ppi: 300, uri: false, mode: 'a' });
    expect(paramProblem(spec.params[0]!, 10)).toBe('ppi must be between 72 and 1200');
    expect(paramProblem(spec.params[2]!, 'c')).toBe('mode must be one of a, b');
  });

  it('orders fixes as the catalogue lists them; an unknown id goes last', () => {
    expect(fixOrder('boxes.normalize')).toBeLessThan(fixOrder('actions.remove'));
    expect(fixOrder('nope')).toBeGreaterThan(fixOrder('actions.remove'));
  });
});
