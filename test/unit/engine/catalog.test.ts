import { describe, expect, it } from 'vitest';
import { VALIDATE_PROFILE_CODES } from '../../../step-definitions/catalogue';
import { findFix, findPreflightProfile, FIXES, PREFLIGHT_PROFILES, VALIDATE_PROFILES } from '../../../lambdas/engine/catalog';
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
});
