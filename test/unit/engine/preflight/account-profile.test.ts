/** An account profile resolved from its built-in base (account-profile.ts). */
import { describe, expect, it } from 'vitest';
import { missingThresholds, resolveAccountProfile, type ProfileDefinition } from '../../../../lambdas/engine/preflight/account-profile';
import { findPreflightProfile } from '../../../../lambdas/engine/profile-catalogue';
import type { PreflightProfileInfo } from '../../../../lambdas/engine/preflight/profiles';

const base = (id: string) => findPreflightProfile(id)!;
const definition = (over: Partial<ProfileDefinition> = {}): ProfileDefinition => ({
  id: 'ads',
  name: 'Newspaper ads',
  description: 'Ink limit of the Daily Bugle',
  kind: 'pdf',
  base: 'gwg-newspaper',
  checks: {},
  recommendFixes: null,
  ...over,
});
const check = (profile: PreflightProfileInfo, id: string) => profile.checks.find((c) => c.id === id);

describe('resolving an account profile', () => {
  it('runs every check it does not name exactly as its base does, in the same order', () => {
    const resolved = resolveAccountProfile(definition(), base('gwg-newspaper'), 1);
    expect(resolved.checks).toEqual(base('gwg-newspaper').checks);
    expect(resolved).toMatchObject({ id: 'ads', name: 'Newspaper ads', description: 'Ink limit of the Daily Bugle', base: 'gwg-newspaper', version: 1 });
    expect(resolved.defaultFixes).toEqual(base('gwg-newspaper').defaultFixes);
  });

  it('lays the thresholds it gives over the base’s, keeping those it does not give', () => {
    const resolved = resolveAccountProfile(definition({ checks: { 'images.resolution-low': { thresholds: { min_ppi: 300 } } } }), base('default'), 4);
    expect(check(resolved, 'images.resolution-low')).toMatchObject({ severity: 'error', thresholds: { min_ppi: 300, min_ppi_1bit: 550, ignore_max_px: 16 } });
  });

  it('changes a severity without touching the thresholds', () => {
    const resolved = resolveAccountProfile(definition({ checks: { 'colour.tac': { severity: 'error' } } }), base('gwg-newspaper'), 1);
    expect(check(resolved, 'colour.tac')).toMatchObject({ severity: 'error', thresholds: { max_percent: 245 } });
  });

  it('turns on a check the base has off with the values the base keeps for it', () => {
    const on = definition({ base: 'default', checks: { 'colour.tac': { severity: 'warn', thresholds: { max_percent: 240 } } } });
    expect(check(base('default'), 'colour.tac')).toMatchObject({ severity: 'off', thresholds: { max_percent: 400 } });
    expect(missingThresholds(on, base('default'))).toEqual([]);
    expect(check(resolveAccountProfile(on, base('default'), 1), 'colour.tac')).toMatchObject({ severity: 'warn', thresholds: { max_percent: 240 } });
  });

  it('names, and refuses to resolve, a check turned on without a value the base lacks', () => {
    const on = definition({ base: 'screen', checks: { 'lines.thin': { severity: 'warn' }, 'images.resolution-low': { severity: 'error' } } });
    expect(missingThresholds(on, base('screen'))).toEqual([{ checkId: 'lines.thin', threshold: 'min_width_pt' }]);
    expect(() => resolveAccountProfile(on, base('screen'), 1)).toThrow(/lines.thin min_width_pt/);
    const given = definition({ base: 'screen', checks: { 'lines.thin': { severity: 'warn', thresholds: { min_width_pt: 0.5 } } } });
    expect(check(resolveAccountProfile(given, base('screen'), 1), 'lines.thin')).toMatchObject({ severity: 'warn', thresholds: { min_width_pt: 0.5 } });
  });

  it('recommends its own fixes when it names them', () => {
    expect(resolveAccountProfile(definition({ recommendFixes: ['actions.remove'] }), base('default'), 1).defaultFixes).toEqual(['actions.remove']);
  });

  it('never changes the built-in it was made from', () => {
    const before = JSON.stringify(base('default'));
    const resolved = resolveAccountProfile(definition({ checks: { 'bleed.insufficient': { thresholds: { required_mm: 5 } } } }), base('default'), 1);
    check(resolved, 'pages.empty')!.severity = 'error';
    expect(JSON.stringify(base('default'))).toBe(before);
  });
});
