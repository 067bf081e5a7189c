import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { VALIDATE_PROFILE_CODES } from '../../../step-definitions/catalogue';
import { STEP_TYPES } from '../../../lambdas/domain/model';
import { FIXES, PREFLIGHT_PROFILES } from '../../../lambdas/engine/profile-catalogue';
import { OPTIMIZE_DEFAULTS, OPTIMIZE_PARAMS } from '../../../lambdas/engine/optimize/params';
import { OPTIMIZE_FIX_IDS } from '../../../lambdas/engine/optimize/types';
import { profileEnvelope, profilesResponse } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ROUTES } from '../../../lambdas/api/routes';
import { call } from './support/api-client';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
  setServices(t.services);
});
afterAll(() => t?.stop());

describe('GET /health', () => {
  it('answers 200 { status: "ok" } without a key', async () => {
    const res = await call('GET', '/health', { caller: null, requestId: 'health-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toBe('health-1');
  });
});

describe('GET /profiles', () => {
  it('lists the preflight profiles, validate codes, fixes and step types with descriptions', async () => {
    const res = await call('GET', '/profiles');
    expect(res.status).toBe(200);
    expect(profilesResponse.safeParse(res.body).success).toBe(true);
    expect(res.body.profiles.map((p: { id: string }) => p.id)).toEqual(PREFLIGHT_PROFILES.map((p) => p.id));
    expect(res.body.profiles[0]).toMatchObject({ id: 'default', description: expect.any(String), defaultFixes: expect.any(Array) });
    expect(res.body.profiles[0].checks.length).toBeGreaterThan(0);
    expect(res.body.validateProfiles.map((v: { code: string }) => v.code).sort()).toEqual([...VALIDATE_PROFILE_CODES].sort());
    expect(res.body.fixes.map((f: { id: string }) => f.id)).toEqual(FIXES.map((f) => f.id));
    expect(res.body.steps.map((s: { type: string }) => s.type)).toEqual([...STEP_TYPES]);
    expect(res.body.steps.find((s: { type: string }) => s.type === 'autofix').accepts).toEqual(['pdf']);
  });

  it('says for each fix what it runs after and its place in the order of application', async () => {
    const res = await call('GET', '/profiles');
    const fix = (id: string) => res.body.fixes.find((f: { id: string }) => f.id === id);
    expect(fix('bleed.mirror').runsAfter).toContain('boxes.normalize');
    expect(fix('boxes.normalize').order).toBeLessThan(fix('bleed.mirror').order);
    expect(fix('pages.unrotate').order).toBe(0);
  });

  it('lists the optimize step\'s options under optimize, each with its default and description, and optimize among the step types (docs/api.md §11 rule 11)', async () => {
    const res = await call('GET', '/profiles');
    expect(res.body.optimize.accepts).toEqual(['pdf', 'raster']);
    expect(res.body.optimize.options.map((o: { name: string }) => o.name)).toEqual(OPTIMIZE_PARAMS.map((p) => p.name));
    expect(res.body.optimize.options).toContainEqual({ name: 'pdf.preset', type: 'string', values: ['print', 'web'], default: 'print', description: expect.stringContaining('300 ppi') });
    expect(res.body.optimize.options).toContainEqual(expect.objectContaining({ name: 'pdf.maxImagePpi', default: OPTIMIZE_DEFAULTS.pdf.maxImagePpi, min: 72, max: 2400 }));
    expect(res.body.optimize.options).toContainEqual(expect.objectContaining({ name: 'raster.maxEdgePx', default: null }));
    expect(res.body.optimize.fixIds).toEqual([...OPTIMIZE_FIX_IDS]);
    expect(res.body.steps.find((s: { type: string }) => s.type === 'optimize')).toEqual({
      type: 'optimize',
      accepts: ['pdf', 'raster'],
      description: expect.stringContaining('smaller'),
      defaults: OPTIMIZE_DEFAULTS,
    });
  });

  it('needs a key', async () => {
    const res = await call('GET', '/profiles', { caller: null });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toMatchObject({ error: true, code: 'unauthorized', requestId: res.headers['x-request-id'] });
  });
});

describe('GET /profiles/{id} (docs/api.md §11 rule 10)', () => {
  it('answers one profile in { profile }, as GET /profiles lists it, with kind and source', async () => {
    const list = await call('GET', '/profiles');
    const res = await call('GET', '/profiles/gwg-sheetfed-cmyk');
    expect(res.status).toBe(200);
    expect(profileEnvelope.safeParse(res.body).success).toBe(true);
    expect(res.body.profile).toEqual(list.body.profiles.find((p: { id: string }) => p.id === 'gwg-sheetfed-cmyk'));
    expect(res.body.profile).toMatchObject({ kind: 'pdf', source: 'store', fileTypes: ['pdf', 'raster'] });
  });

  it('gives every listed profile its kind and source', async () => {
    const res = await call('GET', '/profiles');
    for (const p of res.body.profiles) expect(p).toMatchObject({ kind: expect.stringMatching(/^(pdf|raster)$/), source: 'store' });
  });

  it('answers 404 not_found in the error shape for an id no profile has', async () => {
    const res = await call('GET', '/profiles/no-such-profile');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: true, code: 'not_found', requestId: res.headers['x-request-id'] });
  });
});

describe('every authenticated route', () => {
  it.each(ROUTES.filter((r) => r.auth).map((r) => [r.method, r.path] as const))(
    '%s %s answers 401 with the contract error body and x-request-id when no key was authorised',
    async (method, path) => {
      const concrete = path.replace('{id}', 'job_01jzzzzzzzzzzzzzzzzzzzzzzz');
      const res = await call(method, concrete, { caller: null, requestId: `r-${method}-${path}`, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status).toBe(401);
      expect(res.headers['x-request-id']).toBe(`r-${method}-${path}`);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).toEqual({ error: true, code: 'unauthorized', message: expect.any(String), requestId: `r-${method}-${path}` });
    },
  );
});
