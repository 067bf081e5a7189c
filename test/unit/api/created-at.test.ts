/**
 * A job's creation instant is one fact: `createdAt` is the time encoded in its
 * id. The list's createdAfter/createdBefore filters bound the id, so a job must
 * always be found by `createdAfter=<its own createdAt>`, however the clock moves
 * between reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { idTime } from '../../../lambdas/domain/ids';
import { startTestServices, type TestServices } from '../../support/test-services';
import { call } from './support/api-client';

let t: TestServices;
// Every reading of this clock is one millisecond later than the one before.
let ms = Date.parse('2026-11-21T08:00:00.000Z');
const tickingClock = { now: () => new Date(ms++) };

beforeAll(async () => {
  t = await startTestServices({ clock: tickingClock });
  setServices(t.services);
});
afterAll(async () => {
  setServices(undefined);
  await t?.stop();
});

describe('a job’s creation time', () => {
  it('is the instant in its id, so createdAfter=<createdAt> lists the job itself', async () => {
    const source = { file: Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64') };
    const created = await call('POST', '/jobs/preflight', { body: { sources: [source] } });
    expect(created.status).toBe(201);
    const job = created.body.job;
    expect(Date.parse(job.createdAt)).toBe(idTime(job.id));

    const listed = await call('GET', `/jobs?createdAfter=${encodeURIComponent(job.createdAt)}&createdBefore=${encodeURIComponent(job.createdAt)}`);
    expect(listed.body.jobs.map((j: { id: string }) => j.id)).toEqual([job.id]);
  });
});
