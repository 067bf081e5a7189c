/**
 * docs/api.md §11 rule 10: an account's own preflight profiles. Admin keys create,
 * replace and delete them; every key of the account reads and uses them; another
 * account never sees them. A job records the version it was submitted with, so a
 * later change never reaches it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { api, expectErrorShape, waitForJob } from './support/client';
import { inkyPdfBase64 } from './support/files';
import { target } from './support/target';

/** Ids unique to this run, so the suite can run against a deployment again and again. */
const run = randomBytes(4).toString('hex');
const created: string[] = [];

/** A newspaper-ad profile: the default profile with total ink limited to 240 %, as an error. */
const adsProfile = (id: string, maxPercent = 240) => ({
  id,
  name: 'Newspaper ads',
  description: 'Ink limit of the Daily Bugle',
  kind: 'pdf',
  base: 'default',
  checks: { 'colour.tac': { severity: 'error', thresholds: { max_percent: maxPercent } } },
});

const preflightWith = async (profileId: string, key?: string) =>
  api('POST', '/jobs/preflight', { key, body: { sources: [{ file: await inkyPdfBase64(300), profileId }] } });

const stepOf = (job: any) => job.tasks[0].steps[0];

describe.skipIf(!target().adminKey)('account profiles', () => {
  const admin = () => target().adminKey!;

  async function create(body: Record<string, unknown>) {
    const res = await api('POST', '/profiles', { key: admin(), body });
    if (res.status === 201) created.push(res.body.profile.id);
    return res;
  }

  afterAll(async () => {
    for (const id of created) await api('DELETE', `/profiles/${id}`, { key: admin() });
  });

  it('an admin creates, reads, lists, replaces and deletes one; GET /profiles shows it beside the built-ins', async () => {
    const id = `ads-${run}`;
    const res = await create(adsProfile(id));
    expect(res.status, res.text).toBe(201);
    expect(res.body.profile).toMatchObject({ id, name: 'Newspaper ads', kind: 'pdf', source: 'account', base: 'default', version: 1 });
    const tac = res.body.profile.checks.find((c: any) => c.id === 'colour.tac');
    expect(tac).toMatchObject({ severity: 'error', thresholds: { max_percent: 240 } });

    expect((await api('GET', `/profiles/${id}`)).body.profile).toEqual(res.body.profile);
    const listed = (await api('GET', '/profiles')).body.profiles;
    expect(listed.filter((p: any) => p.source === 'store').map((p: any) => p.id)).toContain('default');
    expect(listed.find((p: any) => p.id === id)).toEqual(res.body.profile);

    const put = await api('PUT', `/profiles/${id}`, { key: admin(), body: adsProfile(id, 260) });
    expect(put.status, put.text).toBe(200);
    expect(put.body.profile).toMatchObject({ id, version: 2, createdAt: res.body.profile.createdAt });
    expect(put.body.profile.checks.find((c: any) => c.id === 'colour.tac').thresholds).toEqual({ max_percent: 260 });

    expect((await api('DELETE', `/profiles/${id}`, { key: admin() })).status).toBe(204);
    expectErrorShape(await api('GET', `/profiles/${id}`), 404, 'not_found');
    expectErrorShape(await api('DELETE', `/profiles/${id}`, { key: admin() }), 404, 'not_found');
    expectErrorShape(await api('PUT', `/profiles/${id}`, { key: admin(), body: adsProfile(id) }), 404, 'not_found');
  });

  it('derives the id from the name when none is given, and refuses an id the account already has (409)', async () => {
    const named = await create({ name: `Business cards ${run}`, kind: 'pdf', base: 'gwg-digital-print' });
    expect(named.status, named.text).toBe(201);
    expect(named.body.profile.id).toBe(`business-cards-${run}`);
    expectErrorShape(await api('POST', '/profiles', { key: admin(), body: { ...adsProfile(named.body.profile.id) } }), 409, 'profile_exists');
  });

  it('standard keys read and use them, but only admin keys write (403)', async () => {
    const id = `std-${run}`;
    expect((await create(adsProfile(id))).status).toBe(201);
    expect((await api('GET', `/profiles/${id}`)).status).toBe(200);
    expectErrorShape(await api('POST', '/profiles', { body: adsProfile(`other-${run}`) }), 403, 'forbidden');
    expectErrorShape(await api('PUT', `/profiles/${id}`, { body: adsProfile(id, 300) }), 403, 'forbidden');
    expectErrorShape(await api('DELETE', `/profiles/${id}`), 403, 'forbidden');
    expect((await api('GET', `/profiles/${id}`)).body.profile.version).toBe(1);
    const job = await preflightWith(id);
    expect(job.status, job.text).toBe(201);
  });

  it.skipIf(!target().otherKey)('another account never sees them: 404, absent from its list, 400 profile_not_found when a job names one', async () => {
    const id = `private-${run}`;
    expect((await create(adsProfile(id))).status).toBe(201);
    const other = target().otherKey!;
    expectErrorShape(await api('GET', `/profiles/${id}`, { key: other }), 404, 'not_found');
    expect((await api('GET', '/profiles', { key: other })).body.profiles.map((p: any) => p.id)).not.toContain(id);
    const job = await preflightWith(id, other);
    expectErrorShape(job, 400, 'profile_not_found');
    expect(job.body.param).toBe('sources[0].profileId');
    const viaJobs = await api('POST', '/jobs', {
      key: other,
      body: { sources: [{ file: await inkyPdfBase64(300), steps: [{ type: 'preflight', params: { profileId: id } }] }] },
    });
    expectErrorShape(viaJobs, 400, 'profile_not_found');
    expect(viaJobs.body.param).toBe('sources[0].steps[0].params.profileId');
  });

  describe('refuses what the engine cannot run, with the field at fault', () => {
    const base = { name: 'Bad', kind: 'pdf', base: 'default' };
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown check', { ...base, checks: { 'colour.tacx': { severity: 'warn' } } }, 'checks["colour.tacx"]'],
      ['an unknown threshold', { ...base, checks: { 'colour.tac': { thresholds: { max: 240 } } } }, 'checks["colour.tac"].thresholds.max'],
      ['a value out of range', { ...base, checks: { 'colour.tac': { thresholds: { max_percent: 450 } } } }, 'checks["colour.tac"].thresholds.max_percent'],
      ['a value of the wrong type', { ...base, checks: { 'bleed.insufficient': { thresholds: { required_mm: '3' } } } }, 'checks["bleed.insufficient"].thresholds.required_mm'],
      ['thresholds for a check without any', { ...base, checks: { 'pages.empty': { thresholds: { x: 1 } } } }, 'checks["pages.empty"].thresholds'],
      ['a check turned on without a value the base lacks', { ...base, base: 'screen', checks: { 'lines.thin': { severity: 'warn' } } }, 'checks["lines.thin"].thresholds.min_width_pt'],
      ['a kind its base is not', { ...base, kind: 'raster' }, 'kind'],
      ['an unknown base', { ...base, base: 'gwg-nope' }, 'base'],
      ['an unknown fix', { ...base, recommendFixes: ['boxes.normalize', 'magic'] }, 'recommendFixes[1]'],
      ["a built-in profile's id", { ...base, id: 'default' }, 'id'],
      ['an id that is not a slug', { ...base, id: 'Ads 240' }, 'id'],
      ['an unknown field', { ...base, colour: 'red' }, 'colour'],
    ];
    it.each(cases)('%s', async (_what, body, param) => {
      const res = await api('POST', '/profiles', { key: admin(), body });
      expectErrorShape(res, 400, 'validation_error');
      expect(res.body.param).toBe(param);
      expect(res.body.message.startsWith(`${param}: `)).toBe(true);
    });
  });

  it('the threshold changes the verdict: a 300 % file passes the default profile and fails one limited to 240 %', async () => {
    const id = `verdict-${run}`;
    expect((await create(adsProfile(id))).status).toBe(201);
    const plain = await waitForJob((await api('POST', '/jobs/preflight', { body: { sources: [{ file: await inkyPdfBase64(300) }] } })).body.job.id);
    expect(plain.outcome).toBe('pass');
    const judged = await waitForJob((await preflightWith(id)).body.job.id);
    expect(judged.outcome).toBe('fail');
    const report = judged.results.preflight[0].report;
    expect(report.profile).toEqual({ id, name: 'Newspaper ads' });
    expect(report.findings.map((f: any) => f.checkId)).toEqual(['colour.tac']);
  });

  it('a job records the version it was submitted with; a later PUT or DELETE changes neither a finished job nor one queued before', async () => {
    const id = `versions-${run}`;
    expect((await create(adsProfile(id))).status).toBe(201);
    // Queued with version 1, then the profile changes at once (350 % would pass the file).
    const queued = await preflightWith(id);
    expect(queued.status).toBe(201);
    expect((await api('PUT', `/profiles/${id}`, { key: admin(), body: adsProfile(id, 350) })).status).toBe(200);
    const first = await waitForJob(queued.body.job.id);
    expect(first.outcome).toBe('fail');
    expect(stepOf(first).params).toEqual({ profileId: id });
    expect(stepOf(first).runtimeParams).toMatchObject({ profileId: id, profileVersion: 1, thresholds: { 'colour.tac': { max_percent: 240 } } });

    const second = await waitForJob((await preflightWith(id)).body.job.id);
    expect(second.outcome).toBe('pass');
    expect(stepOf(second).runtimeParams).toMatchObject({ profileId: id, profileVersion: 2, thresholds: { 'colour.tac': { max_percent: 350 } } });

    // A fix job: autofix and repreflight use the profile the preflight recorded.
    expect((await api('PUT', `/profiles/${id}`, { key: admin(), body: adsProfile(id, 240) })).status).toBe(200);
    const fixed = await api('POST', '/jobs/fix', { body: { repreflight: true, sources: [{ file: await inkyPdfBase64(300), profileId: id }] } });
    expect((await api('DELETE', `/profiles/${id}`, { key: admin() })).status).toBe(204);
    const fixJob = await waitForJob(fixed.body.job.id);
    const [preflight, autofix, repreflight] = fixJob.tasks[0].steps;
    expect(preflight.runtimeParams).toMatchObject({ profileId: id, profileVersion: 3 });
    expect(autofix.runtimeParams).toMatchObject({ profileId: id, profileVersion: 3 });
    expect(repreflight.runtimeParams).toMatchObject({ profileId: id, profileVersion: 3, thresholds: { 'colour.tac': { max_percent: 240 } } });
    expect(repreflight.outcome).toBe('fail');

    // Deleted: the jobs read as before, and no new job may name it.
    const again = (await api('GET', `/jobs/${first.id}`)).body.job;
    expect(stepOf(again).runtimeParams).toEqual(stepOf(first).runtimeParams);
    expect(again.outcome).toBe('fail');
    expectErrorShape(await preflightWith(id), 400, 'profile_not_found');
  });
});
