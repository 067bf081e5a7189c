/** The body of POST /profiles, derived from the check, threshold and fix catalogues (profile-body.ts). */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../lambdas/domain/errors';
import { formatQuotedParam } from '../../../../lambdas/api/middleware/validation-issue';
import { parseRequest } from '../../../../lambdas/api/schemas/parse-request';
import { profileBody, profileInputOf } from '../../../../lambdas/api/schemas/profile-body';
import { CHECK_DESCRIPTIONS } from '../../../../lambdas/engine/preflight/check-catalogue';
import { THRESHOLD_SPECS } from '../../../../lambdas/engine/preflight/threshold-specs';

const parse = (body: unknown) => parseRequest(profileBody, body, formatQuotedParam);
function refusal(body: unknown): { param: string | undefined; message: string } {
  try {
    parse(body);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'validation_error') return { param: e.param, message: e.message };
    throw e;
  }
  throw new Error('accepted');
}
const base = { name: 'Ads', kind: 'pdf', base: 'default' };

describe('the profile body', () => {
  it('takes a definition and fills in what it leaves out', () => {
    const body = parse({ ...base, checks: { 'colour.tac': { severity: 'error', thresholds: { max_percent: 240 } } } });
    expect(profileInputOf(body)).toEqual({ name: 'Ads', description: '', kind: 'pdf', base: 'default', checks: { 'colour.tac': { severity: 'error', thresholds: { max_percent: 240 } } }, recommendFixes: null });
  });

  it('accepts every check of the catalogue, and every threshold of the specs at its bounds', () => {
    const checks: Record<string, unknown> = Object.fromEntries(Object.keys(CHECK_DESCRIPTIONS).map((id) => [id, { severity: 'warn' }]));
    for (const [id, specs] of Object.entries(THRESHOLD_SPECS)) {
      const values = Object.entries(specs as Record<string, { type: string; min?: number; max?: number }>).map(([name, spec]) => [name, spec.type === 'boolean' ? true : spec.max]);
      checks[id] = { severity: 'warn', thresholds: Object.fromEntries(values) };
    }
    expect(() => parse({ ...base, checks })).not.toThrow();
  });

  it.each([
    ['an unknown check', { 'colour.tacx': {} }, 'checks["colour.tacx"]', /is not a preflight check/],
    ['an unknown threshold', { 'colour.tac': { thresholds: { max: 1 } } }, 'checks["colour.tac"].thresholds.max', /is not a threshold of colour.tac \(it has: max_percent\)/],
    ['a value above the range', { 'colour.tac': { thresholds: { max_percent: 450 } } }, 'checks["colour.tac"].thresholds.max_percent', /must be from 100 to 400 percent/],
    ['a value below the range', { 'bleed.insufficient': { thresholds: { required_mm: -1 } } }, 'checks["bleed.insufficient"].thresholds.required_mm', /must be from 0 to 20 mm/],
    ['a fraction of a ppi', { 'images.resolution-low': { thresholds: { min_ppi: 299.5 } } }, 'checks["images.resolution-low"].thresholds.min_ppi', /whole number of ppi/],
    ['a flag that is not a boolean', { 'colour.icc-rgb': { thresholds: { allow_images: 'yes' } } }, 'checks["colour.icc-rgb"].thresholds.allow_images', /true or false/],
    ['thresholds for a check without any', { 'pages.empty': { thresholds: {} } }, 'checks["pages.empty"].thresholds', /has no thresholds/],
    ['an unknown severity', { 'colour.tac': { severity: 'loud' } }, 'checks["colour.tac"].severity', /must be one of/],
  ])('refuses %s at its param', (_what, checks, param, message) => {
    const r = refusal({ ...base, checks });
    expect(r.param).toBe(param);
    expect(r.message.startsWith(`${param}: `)).toBe(true);
    expect(r.message).toMatch(message);
  });

  it('refuses a check turned on without a value its base lacks, at the missing threshold', () => {
    expect(refusal({ ...base, base: 'screen', checks: { 'text.small': { severity: 'warn' } } }).param).toBe('checks["text.small"].thresholds.min_size_pt');
    expect(() => parse({ ...base, base: 'screen', checks: { 'text.small': { severity: 'warn', thresholds: { min_size_pt: 7 } } } })).not.toThrow();
  });

  it('refuses a kind other than the base’s, a built-in’s id, an id that is not a slug, an unknown base and an unknown fix', () => {
    expect(refusal({ ...base, kind: 'raster' }).param).toBe('kind');
    expect(refusal({ ...base, id: 'gwg-newspaper' }).param).toBe('id');
    expect(refusal({ ...base, id: 'Ads 240' }).param).toBe('id');
    expect(refusal({ ...base, id: 'x'.repeat(65) }).param).toBe('id');
    expect(refusal({ ...base, base: 'nope' }).param).toBe('base');
    expect(refusal({ ...base, recommendFixes: ['boxes.normalize', 'magic'] }).param).toBe('recommendFixes[1]');
    expect(refusal({ ...base, name: '  ' }).param).toBe('name');
    expect(refusal({ ...base, colour: 'red' }).param).toBe('colour');
  });
});
