/**
 * What the job-creating routes count: each job created, by its route
 * (JobsCreated), and each sync request answered 202 because its job was not
 * terminal within the wait (SyncRequestsPending). Published once per request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../support/test-services';
import { useMemoryMetrics } from '../../support/memory-metrics';
import { call } from './support/api-client';

const URL_SOURCE = 'http://127.0.0.1:9/card.pdf';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => {
  setServices({ ...t.services, config: { ...t.config, syncWaitMs: 50 } });
});
const metrics = useMemoryMetrics();

const recorded = () => metrics.sink.recorded.map(({ name, value, dimensions }) => ({ name, value, dimensions }));

describe('job-creating routes', () => {
  it.each(['/jobs', '/jobs/preflight', '/jobs/fix', '/jobs/previews'])('%s counts the job it created under its route', async (path) => {
    const body = path === '/jobs' ? { sources: [{ url: URL_SOURCE, steps: [{ type: 'preflight' }] }] } : { sources: [{ url: URL_SOURCE }] };
    const res = await call('POST', path, { body });
    expect(res.status).toBe(201);
    expect(recorded()).toEqual([{ name: 'JobsCreated', value: 1, dimensions: { endpoint: path } }]);
    expect(metrics.sink.flushes).toBe(1);
  });

  it('counts a sync request answered 202 under its route, besides the job', async () => {
    const res = await call('POST', '/jobs/validate', { body: { sources: [{ url: URL_SOURCE, profile: 'auto' }] } });
    expect(res.status).toBe(202);
    expect(recorded()).toEqual([
      { name: 'JobsCreated', value: 1, dimensions: { endpoint: '/jobs/validate' } },
      { name: 'SyncRequestsPending', value: 1, dimensions: { endpoint: '/jobs/validate' } },
    ]);
  });

  it('counts nothing for a request refused before a job exists, and still publishes', async () => {
    const res = await call('POST', '/jobs/preflight', { body: { sources: [] } });
    expect(res.status).toBe(400);
    expect(recorded()).toEqual([]);
    expect(metrics.sink.flushes).toBe(1);
  });
});
