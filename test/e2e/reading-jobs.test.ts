/**
 * docs/api.md §3 "Reading jobs": list, get, expand=runs, delete, profiles.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectErrorShape, waitForJob } from './support/client';
import { onePagePdfBase64, onePagePdfBytes } from './support/files';
import { slowSourceServer } from './support/source-server';
import { target } from './support/target';

const tag = `read-${Date.now().toString(36)}`;

describe('GET /jobs', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    const file = await onePagePdfBase64();
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/jobs', {
        body: { orderId: `${tag}-${i % 2}`, customerId: tag, channel: i === 4 ? 'admin' : 'api', sources: [{ file, steps: [{ type: 'preflight' }] }] },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.job.id);
    }
    for (const id of ids) await waitForJob(id);
  });

  it('lists the account jobs newest first and pages with limit and nextKey', async () => {
    const seen: string[] = [];
    let nextKey: string | null = null;
    do {
      const q: string = `/jobs?customerId=${tag}&limit=2${nextKey ? `&nextKey=${encodeURIComponent(nextKey)}` : ''}`;
      const res = await api('GET', q);
      expect(res.status).toBe(200);
      expect(res.body.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.jobs.map((j: any) => j.id));
      nextKey = res.body.nextKey;
    } while (nextKey);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by orderId, channel, status and creation time', async () => {
    const byOrder = await api('GET', `/jobs?orderId=${tag}-1`);
    expect(byOrder.body.jobs.map((j: any) => j.id)).toEqual([ids[3], ids[1]]);
    const byChannel = await api('GET', `/jobs?customerId=${tag}&channel=admin`);
    expect(byChannel.body.jobs.map((j: any) => j.id)).toEqual([ids[4]]);
    const byStatus = await api('GET', `/jobs?customerId=${tag}&status=done`);
    expect(byStatus.body.jobs).toHaveLength(5);
    const first = await api('GET', `/jobs/${ids[2]}`);
    const after = await api('GET', `/jobs?customerId=${tag}&createdAfter=${encodeURIComponent(first.body.job.createdAt)}`);
    expect(after.body.jobs.map((j: any) => j.id)).toEqual([ids[4], ids[3], ids[2]]);
  });

  it('preview=true gives lean entries: no steps, no summary or results', async () => {
    const res = await api('GET', `/jobs?customerId=${tag}&preview=true&limit=1`);
    const job = res.body.jobs[0];
    expect(job.id).toBe(ids[4]);
    expect(job.summary).toBeUndefined();
    expect(job.results).toBeUndefined();
    for (const t of job.tasks ?? []) expect(t.steps).toBeUndefined();
    const full = await api('GET', `/jobs?customerId=${tag}&limit=1`);
    expect(full.body.jobs[0].summary).toBeTruthy();
    expect(full.body.jobs[0].tasks[0].steps).toHaveLength(1);
  });
});

describe('GET /jobs/{id}', () => {
  it('gives presigned downloadUrls that really download the files', async () => {
    const bytes = await onePagePdfBytes();
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ file: Buffer.from(bytes).toString('base64'), name: 'card.pdf' }] } });
    const job = await waitForJob(res.body.job.id);
    const original = job.tasks[0].originalArtifact;
    expect(original).toMatchObject({ kind: 'file', role: 'source', mimeType: 'application/pdf', sizeBytes: bytes.length, fileName: 'card.pdf', expiresIn: 3600 });
    const download = await fetch(original.downloadUrl);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    const report = job.tasks[0].outputArtifacts.find((a: any) => a.role === 'preflight-report');
    const reportBody: any = await (await fetch(report.downloadUrl)).json();
    expect(reportBody.document.pageCount).toBe(1);
  });

  it('expand=runs answers the runs shape without the job wrapper', async () => {
    const res = await api('POST', '/jobs', { body: { sources: [{ file: await onePagePdfBase64(), name: 'a.pdf', steps: [{ type: 'preflight' }, { type: 'previews', params: { dpi: 36 } }] }] } });
    const job = await waitForJob(res.body.job.id);
    const runs = await api('GET', `/jobs/${job.id}?expand=runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.job).toBeUndefined();
    expect(runs.body).toMatchObject({ id: job.id, status: job.status, outcome: job.outcome, canProceed: job.canProceed });
    const run = runs.body.runs[0];
    expect(run).toMatchObject({ id: job.tasks[0].id, name: 'a.pdf', status: 'done', hasOutput: true });
    expect(run.proofs.map((p: any) => p.page)).toEqual([1]);
    expect((await fetch(run.proofs[0].url)).status).toBe(200);
    expect((await fetch(run.downloadUrl)).status).toBe(200);
    expect(((await (await fetch(run.reportUrl)).json()) as any).document.pageCount).toBe(1);
  });
});

describe('DELETE /jobs/{id}', () => {
  it('deletes the job, its tasks and every stored file', async () => {
    const res = await api('POST', '/jobs/previews', { body: { sources: [{ file: await onePagePdfBase64(), params: { dpi: 36 } }] } });
    const job = await waitForJob(res.body.job.id);
    const urls = [job.tasks[0].originalArtifact.downloadUrl, ...job.tasks[0].outputArtifacts.map((a: any) => a.downloadUrl)];
    for (const u of urls) expect((await fetch(u)).status).toBe(200);

    const del = await api('DELETE', `/jobs/${job.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: job.id, taskIds: [job.tasks[0].id] });
    expectErrorShape(await api('GET', `/jobs/${job.id}`), 404, 'not_found');
    for (const u of urls) expect((await fetch(u)).status).toBeGreaterThanOrEqual(400);
  });

  it.skipIf(!target().local)('stops a running job first, and nothing of it comes back', async () => {
    const server = await slowSourceServer(3000);
    try {
      const res = await api('POST', '/jobs/preflight', { body: { sources: [{ url: server.url }] } });
      expect(res.status).toBe(201);
      await new Promise((r) => setTimeout(r, 300)); // the ingest is now waiting on the slow server
      const del = await api('DELETE', `/jobs/${res.body.job.id}`);
      expect(del.status).toBe(200);
      await new Promise((r) => setTimeout(r, 4000)); // past the moment the source arrives
      expectErrorShape(await api('GET', `/jobs/${res.body.job.id}`), 404, 'not_found');
      const list = await api('GET', '/jobs?limit=100');
      expect(list.body.jobs.map((j: any) => j.id)).not.toContain(res.body.job.id);
    } finally {
      await server.close();
    }
  });
});

describe('GET /profiles', () => {
  it('lists the preflight profiles and the validate codes with descriptions', async () => {
    const res = await api('GET', '/profiles');
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).toContain('"default"');
    for (const code of ['auto', '1a', '1b', '2a', '2b', '2u', '3a', '3b', '3u', '4', '4e', '4f', 'ua1', 'ua2']) expect(text).toContain(`"${code}"`);
  });
});
