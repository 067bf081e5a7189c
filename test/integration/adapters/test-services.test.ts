/**
 * startTestServices, which the API and pipeline suites build on: real stores
 * over private stand-ins, recording fakes for everything that would start work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServices, type TestServices } from '../../support/test-services';
import { setServices, services } from '../../../lambdas/platform/services';
import { makeJobGraph } from './job-fixtures';

let t: TestServices;
let second: TestServices;

beforeAll(async () => {
  [t, second] = await Promise.all([startTestServices(), startTestServices({ config: { syncWaitMs: 500 } })]);
});

afterAll(async () => {
  setServices(undefined);
  await Promise.all([t?.stop(), second?.stop()]);
});

describe('test services', () => {
  it('point real stores at loopback stand-ins with a table and bucket of their own', () => {
    expect(t.config.endpoints.dynamodb).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.config.endpoints.s3).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.config.networkMode).toBe('local');
    expect(t.config.tableName).not.toBe(second.config.tableName);
    expect(t.config.bucketName).not.toBe(second.config.bucketName);
    expect(second.config.syncWaitMs).toBe(500);
    expect(t.services.blobs.bucket).toBe(t.config.bucketName);
  });

  it('store jobs and files for real', async () => {
    const graph = makeJobGraph({ ids: t.services.ids });
    await t.services.jobs.createJob(graph);
    expect((await t.services.jobs.getGraph('acct-a', graph.job.id))?.tasks).toHaveLength(1);
    // The other set is another world.
    expect(await second.services.jobs.getGraphById(graph.job.id)).toBeNull();

    await t.services.blobs.putBytes('acct-a/uploads/u', new TextEncoder().encode('%PDF'), 'application/pdf');
    expect(await t.services.blobs.head('acct-a/uploads/u')).toEqual({ sizeBytes: 4, contentType: 'application/pdf', etag: expect.any(String) });
    const res = await fetch(await t.services.blobs.presignGet('acct-a/uploads/u', 60));
    expect(await res.text()).toBe('%PDF');
  });

  it('record what would start executions, schedule retries and publish events', async () => {
    setServices(t.services);
    const s = services();
    const input = { jobId: 'job_01j0000000000000000000000a', accountId: 'acct-a', tasks: [] };
    expect(await s.orchestrator.startJob(input)).toBe('local:job_01j0000000000000000000000a');
    await s.orchestrator.stop('local:job_01j0000000000000000000000a');
    await s.webhookScheduler.scheduleRetry({ jobId: input.jobId, accountId: 'acct-a', attempt: 2, delaySeconds: 5 });
    await s.events.publishJobTerminal({ jobId: input.jobId, accountId: 'acct-a', status: 'done', outcome: 'pass', hasWebhook: false });
    expect(t.orchestrator.started).toEqual([input]);
    expect(t.orchestrator.stopped).toEqual(['local:job_01j0000000000000000000000a']);
    expect(t.scheduler.scheduled).toEqual([{ jobId: input.jobId, accountId: 'acct-a', attempt: 2, delaySeconds: 5 }]);
    expect(t.events.published).toEqual([{ jobId: input.jobId, accountId: 'acct-a', status: 'done', outcome: 'pass', hasWebhook: false }]);
    expect(second.orchestrator.started).toEqual([]);
  });
});
