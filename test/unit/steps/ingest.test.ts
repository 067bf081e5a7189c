import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { setServices } from '../../../lambdas/platform/services';
import type { Services } from '../../../lambdas/domain/ports';
import { startTestServices, type TestServices } from '../../support/test-services';
import { handler as ingest } from '../../../lambdas/steps/ingest';
import { jobPrefix, sourceKey, uploadKey } from '../../../lambdas/domain/blob-keys';
import { listKeys } from './support/blob-listing';
import type { SourceLocator } from '../../../lambdas/domain/model';
import { createTestJob, reload, stepEvent, taskView, type TaskSpec } from './support/job-fixture';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { buildPdf, pngBytes } from '../../support/pdf-fixtures';
import { captureLogLines, type CapturedLog } from '../../support/log-lines';

let t: TestServices;
let server: http.Server;
let base: string;
let route: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();
let requests: http.IncomingMessage[] = [];
let pdfBytes: Uint8Array;

let quiet: CapturedLog | undefined;

beforeAll(async () => {
  // The workers' log lines, kept out of the test output.
  quiet = captureLogLines();
  t = await startTestServices({ config: { networkMode: 'local' } });
  setServices(t.services);
  pdfBytes = await buildPdf({ pages: 1 });
  server = http.createServer((req, res) => {
    requests.push(req);
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  requests = [];
  setServices(t.services);
});
afterAll(async () => {
  quiet?.restore();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  setServices(undefined);
  await t?.stop();
});

async function ingestTask(task: Omit<TaskSpec, 'steps'>) {
  const graph = await createTestJob(t.services, { tasks: [{ ...task, steps: [{ type: 'preflight' }] }] });
  const event = { jobId: graph.job.id, accountId: graph.job.accountId, taskId: graph.tasks[0]!.id };
  const output = await ingest(event);
  const after = await reload(t.services, graph.job.id);
  return { output, event, after, ...taskView(after, 0) };
}

/** A one-page PDF posted to a new upload, with the ETag a job made from it records. */
async function storedUpload() {
  const accountId = 'acct_test';
  const uploadId = t.services.ids.next('upload');
  const from = uploadKey(accountId, uploadId);
  await t.services.blobs.putBytes(from, pdfBytes, 'application/pdf');
  return { accountId, uploadId, from, etag: (await t.services.blobs.head(from))!.etag! };
}

const urlSource = (path: string, headers?: Record<string, string>): SourceLocator => ({ kind: 'url', url: `${base}${path}`, ...(headers ? { headers } : {}) });

describe('ingest', () => {
  it('starts a task whose file the API stored inline: type detected, original and current file recorded, job running', async () => {
    const { output, task, audit, after } = await ingestTask({ bytes: pdfBytes, name: 'card.pdf' });
    expect(output).toEqual({ ok: true });
    expect(task).toMatchObject({ status: 'running', fileType: 'pdf', mimeType: 'application/pdf' });
    expect(task.originalArtifact).toEqual({
      kind: 'file',
      role: 'source',
      bucket: t.config.bucketName,
      key: (task.locator as { key: string }).key,
      mimeType: 'application/pdf',
      sizeBytes: pdfBytes.length,
      fileName: 'card.pdf',
    });
    expect(task.currentFile).toEqual(task.originalArtifact);
    expect(after.job.status).toBe('running');
    expect(audit.map((a) => a.event)).toEqual(['source.received', 'type.detected']);
    expect(audit[1]!.message).toMatch(/pdf \(application\/pdf\)/);
  });

  it('detects the type from the bytes, never from the name', async () => {
    const { task } = await ingestTask({ bytes: await pngBytes(), name: 'looks-like.pdf' });
    expect(task).toMatchObject({ status: 'running', fileType: 'raster', mimeType: 'image/png' });
  });

  it('reads an upload where it is: the task\'s source is the upload\'s own object, not a copy', async () => {
    const { accountId, uploadId, from, etag } = await storedUpload();
    const { output, task, audit } = await ingestTask({ locator: { kind: 'upload', uploadId, key: from, etag }, name: 'flyer' });
    expect(output).toEqual({ ok: true });
    expect(task.originalArtifact).toMatchObject({ key: from, fileName: 'flyer.pdf', sizeBytes: pdfBytes.length, role: 'source' });
    expect(await t.services.blobs.head(sourceKey(accountId, task.jobId, task.id, 'flyer.pdf'))).toBeNull();
    expect(audit[0]).toMatchObject({ event: 'source.received', message: expect.stringContaining(uploadId) });
  });

  it('fails the task with a sentence when the upload\'s file was posted again after the job was created', async () => {
    const { uploadId, from, etag } = await storedUpload();
    await t.services.blobs.putBytes(from, new TextEncoder().encode('%PDF-1.4 another file'), 'application/pdf');
    const { output, task } = await ingestTask({ locator: { kind: 'upload', uploadId, key: from, etag } });
    expect(output).toEqual({ ok: false });
    expect(task).toMatchObject({ status: 'error', reason: `The file of upload ${uploadId} was replaced after this job was created; create a new job to check the new file.` });
  });

  it('fails a later step with the same sentence when the upload is posted again after ingest', async () => {
    const { uploadId, from, etag } = await storedUpload();
    const { after, task } = await ingestTask({ locator: { kind: 'upload', uploadId, key: from, etag } });
    expect(task.currentFile).toMatchObject({ key: from, etag });
    await t.services.blobs.putBytes(from, await buildPdf({ pages: 2 }), 'application/pdf');
    await preflight(stepEvent(after, 0, 0));
    const { steps } = taskView(await reload(t.services, after.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'error', reason: expect.stringContaining(`The file of upload ${uploadId} was replaced after this job was created`) });
  });

  it('fails the task when the upload is not in storage', async () => {
    const uploadId = t.services.ids.next('upload');
    const { output, task, audit } = await ingestTask({ locator: { kind: 'upload', uploadId, key: uploadKey('acct_test', uploadId) } });
    expect(output).toEqual({ ok: false });
    expect(task).toMatchObject({ status: 'error', reason: expect.stringContaining('has no file in storage') });
    expect(audit.map((a) => a.event)).toEqual(['source.failed']);
  });

  it('fetches a URL with the task\'s headers through up to 3 redirects, names the file from the URL path and stores it', async () => {
    route = (req, res) => {
      const hops = Number(new URL(req.url!, base).searchParams.get('hops'));
      if (hops > 0) {
        res.writeHead(307, { location: `/files/business%20card.pdf?hops=${hops - 1}` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from(pdfBytes));
    };
    const { output, task, audit } = await ingestTask({ locator: urlSource('/files/business%20card.pdf?hops=3', { Authorization: 'Bearer shop-secret' }), name: null });
    expect(output).toEqual({ ok: true });
    expect(requests).toHaveLength(4);
    expect(requests.every((r) => r.headers.authorization === 'Bearer shop-secret')).toBe(true);
    expect(task).toMatchObject({ status: 'running', fileType: 'pdf', mimeType: 'application/pdf' });
    expect(task.originalArtifact).toMatchObject({ fileName: 'business card.pdf', sizeBytes: pdfBytes.length, key: sourceKey('acct_test', task.jobId, task.id, 'business card.pdf') });
    expect(Buffer.from(await t.services.blobs.getBytes(task.originalArtifact!.key)).equals(Buffer.from(pdfBytes))).toBe(true);
    expect(audit[0]).toMatchObject({ event: 'source.fetched', message: expect.stringMatching(/^Fetched http:\/\/127\.0\.0\.1:\d+\/files\/business%20card\.pdf \(.*HTTP 200, redirected to/) });
    expect(audit[0]!.message).not.toContain('hops=');
  });

  it('leaves nothing in storage when the job is deleted while its source is still downloading', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ locator: urlSource('/slow.pdf'), steps: [{ type: 'preflight' }] }] });
    let deleted!: Promise<void>;
    route = (_req, res) => {
      // DELETE /jobs/{id} lands while the file is on its way: blobs, then records.
      deleted = (async () => {
        await t.services.blobs.deletePrefix(jobPrefix(graph.job.accountId, graph.job.id));
        await t.services.jobs.deleteJob(graph.job.id);
      })();
      deleted.then(() => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(Buffer.from(pdfBytes));
      });
    };
    const output = await ingest({ jobId: graph.job.id, accountId: graph.job.accountId, taskId: graph.tasks[0]!.id });
    await deleted;
    expect(output).toEqual({ ok: false });
    expect(await listKeys(t.config, jobPrefix(graph.job.accountId, graph.job.id))).toEqual([]);
  });

  it('fails the task with the HTTP status when the URL answers 404, and tells the pipeline to skip the steps', async () => {
    route = (_req, res) => {
      res.writeHead(404);
      res.end('gone');
    };
    const { output, task, steps, audit } = await ingestTask({ locator: urlSource('/missing.pdf') });
    expect(output).toEqual({ ok: false });
    expect(task).toMatchObject({ status: 'error', reason: 'The source URL answered HTTP 404.', originalArtifact: null });
    expect(steps[0]!.status).toBe('pending');
    expect(audit).toEqual([expect.objectContaining({ event: 'source.failed', message: 'The source URL answered HTTP 404.' })]);
  });

  it('refuses a gzip-encoded source that inflates past the size cap', async () => {
    setServices({ ...t.services, config: { ...t.config, maxSourceBytes: 1024 * 1024 } } as Services);
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.from(pdfBytes), Buffer.alloc(4 * 1024 * 1024)]));
    route = (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const { output, task } = await ingestTask({ locator: urlSource('/bomb.pdf') });
    expect(output).toEqual({ ok: false });
    expect(task).toMatchObject({ status: 'error', reason: 'The source is larger than 1 MB.' });
  });

  it('gives up on a URL that does not answer within the fetch timeout', async () => {
    setServices({ ...t.services, config: { ...t.config, sourceFetchTimeoutMs: 300 } } as Services);
    route = () => undefined;
    const started = Date.now();
    const { output, task } = await ingestTask({ locator: urlSource('/slow.pdf') });
    expect(output).toEqual({ ok: false });
    expect(task.reason).toBe('The source URL did not answer within 1 s.');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails the task for an empty file', async () => {
    route = (_req, res) => res.end();
    const { output, task } = await ingestTask({ locator: urlSource('/empty.pdf') });
    expect(output).toEqual({ ok: false });
    expect(task).toMatchObject({ status: 'error', reason: 'The source file is empty (0 bytes).' });
  });

  it('does nothing more when run again for a task it already started, or one already failed', async () => {
    const first = await ingestTask({ bytes: pdfBytes });
    await expect(ingest(first.event)).resolves.toEqual({ ok: true });
    expect((await reload(t.services, first.event.jobId)).audit).toEqual(first.after.audit);

    route = (_req, res) => {
      res.writeHead(500);
      res.end();
    };
    const failed = await ingestTask({ locator: urlSource('/broken.pdf') });
    await expect(ingest(failed.event)).resolves.toEqual({ ok: false });
    expect(requests).toHaveLength(1);
    expect((await reload(t.services, failed.event.jobId)).audit).toEqual(failed.after.audit);
  });

  it('records an unexpected storage failure on the task with a clean reason and rethrows it', async () => {
    const failingBlobs = { ...t.services.blobs, bucket: t.services.blobs.bucket, head: async () => Promise.reject(Object.assign(new Error('socket hang up at /var/task'), { name: 'S3ServiceException' })) };
    setServices({ ...t.services, blobs: failingBlobs });
    const graph = await createTestJob(t.services, { tasks: [{ bytes: pdfBytes, steps: [{ type: 'preflight' }] }] });
    await expect(ingest({ jobId: graph.job.id, accountId: graph.job.accountId, taskId: graph.tasks[0]!.id })).rejects.toThrow('socket hang up');
    const { task } = taskView(await reload(t.services, graph.job.id), 0);
    expect(task).toMatchObject({ status: 'error', reason: 'The source could not be retrieved because of an internal error (S3ServiceException).' });
  });
});
