/**
 * Retention in the local runtime (dynalite has no TTL): with a retention period of two seconds
 * and a sweep every quarter second, a job created over HTTP disappears on its own, with its
 * files, and GET /jobs/{id} then answers 404 in the contract's error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../../local/runtime';

const RETENTION_SECONDS = 2;

describe('the local runtime’s retention sweep', () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    runtime = await startLocalRuntime({
      port: 0,
      storagePort: 0,
      inMemory: true,
      quiet: true,
      log: () => {},
      env: { RETENTION_DAYS: String(RETENTION_SECONDS / 86_400), RETENTION_SWEEP_SECONDS: '0.25' },
    });
  });
  afterAll(() => runtime?.stop());

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${runtime.url}${path}`, { ...init, headers: { Authorization: `Bearer ${runtime.apiKey}`, 'Content-Type': 'application/json' } });

  it('deletes a job and its files once its retention has run out', async () => {
    const created = await api('/jobs', {
      method: 'POST',
      body: JSON.stringify({ sources: [{ file: Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64'), steps: [{ type: 'preflight' }] }] }),
    });
    expect(created.status).toBe(201);
    const { job } = (await created.json()) as { job: { id: string; createdAt: string; expiresAt: string } };
    expect(Date.parse(job.expiresAt) - Date.parse(job.createdAt)).toBeGreaterThanOrEqual(RETENTION_SECONDS * 1000);
    expect(Date.parse(job.expiresAt) - Date.parse(job.createdAt)).toBeLessThanOrEqual(RETENTION_SECONDS * 1000 + 1000);
    const graph = await runtime.services.jobs.getGraphById(job.id);
    const sourceKey = (graph!.tasks[0]!.locator as { key: string }).key;
    expect(await runtime.services.blobs.head(sourceKey)).not.toBeNull();

    const deadline = Date.parse(job.expiresAt) + 5_000;
    let res = await api(`/jobs/${job.id}`);
    while (res.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      res = await api(`/jobs/${job.id}`);
    }
    expect(res.status).toBe(404);
    // Not before its time.
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(job.expiresAt));
    expect(await res.json()).toMatchObject({ error: true, code: 'not_found', message: expect.any(String), requestId: expect.any(String) });
    expect(await runtime.services.blobs.head(sourceKey)).toBeNull();
    expect(await runtime.services.jobs.getGraphById(job.id)).toBeNull();
  });
});
