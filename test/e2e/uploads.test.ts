/**
 * docs/api.md §3 "Uploads": presigned POST, storage-enforced size, fileRef rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { existsSync, openAsBlob, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, expectErrorShape, postForm, waitForJob } from './support/client';
import { onePagePdfBytes, writeLargePdfFile } from './support/files';
import { target } from './support/target';
import { keysCli } from './support/global-setup';

const SHARED_ACCOUNT = 'shared-upload-suite';

/** Bytes of the objects the storage stand-in holds for an account (local runtime only). */
function storedBytes(accountId: string): number {
  const dataDir = target().dataDir;
  const root = dataDir ? path.join(dataDir, 's3', 'proofline-files', accountId) : null;
  if (!root || !existsSync(root)) return 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name.endsWith('._S3rver_object')) bytes += st.size;
    }
  };
  walk(root);
  return bytes;
}

async function createUpload(sizeBytes: number, key?: string | null) {
  const res = await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes }, key });
  expect(res.status).toBe(200);
  return res.body;
}

describe('POST /uploads', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'proofline-uploads-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a presigned POST; the uploaded file is submitted by fileRef and processed', async () => {
    const bytes = await onePagePdfBytes();
    const up = await createUpload(bytes.length);
    expect(up.fileRef).toMatch(/^upload_[0-9a-z]{26}$/);
    expect(up.upload.method).toBe('POST');
    expect(up.maxBytes).toBe(bytes.length);
    expect(up.expiresIn).toBeGreaterThan(0);
    const stored = await postForm(up.upload, new Blob([bytes]));
    expect(stored.status).toBeLessThan(300);

    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: up.fileRef, name: 'card.pdf' }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.tasks[0].fileRef).toBe(up.fileRef);
    const job = await waitForJob(res.body.job.id);
    expect(job.status).toBe('done');
    expect(job.tasks[0].originalArtifact.sizeBytes).toBe(bytes.length);
  });

  it('takes a 100 MB PDF through upload and preflight to done', async () => {
    const file = path.join(dir, 'big.pdf');
    await writeLargePdfFile(file, 100 * 1024 * 1024);
    const size = (await stat(file)).size;
    const up = await createUpload(size);
    const stored = await postForm(up.upload, await openAsBlob(file));
    expect(stored.status).toBeLessThan(300);
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: up.fileRef }] } });
    expect(res.status).toBe(201);
    const job = await waitForJob(res.body.job.id, 180_000);
    expect(job.status).toBe('done');
    expect(job.tasks[0].originalArtifact.sizeBytes).toBe(size);
    expect(job.results.preflight[0].report.document.pageCount).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('ten jobs on one upload share its file: one copy stored, deleting jobs never takes it from another', async () => {
    const t = target();
    // An account of its own, so the bytes counted are this test's (local runtime only).
    const key = t.local ? (await keysCli(t.dataDir!, t.port!, ['create', '--account', SHARED_ACCOUNT])).key : undefined;
    const file = path.join(dir, 'shared.pdf');
    await writeLargePdfFile(file, 8 * 1024 * 1024);
    const size = (await stat(file)).size;
    const up = await createUpload(size, key);
    expect((await postForm(up.upload, await openAsBlob(file))).status).toBeLessThan(300);
    const before = storedBytes(SHARED_ACCOUNT);
    // The count sees the upload itself (so it would see copies of it).
    if (t.local) expect(before).toBeGreaterThanOrEqual(size);

    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api('POST', '/jobs/validate', { body: { async: true, sources: [{ fileRef: up.fileRef, name: `copy-${i}.pdf`, profile: '2b' }] }, key });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.job.id);
    }
    for (const id of ids) expect((await waitForJob(id, 120_000, key)).status).toBe('done');
    // Copied per job, ten jobs stored ten more copies; shared, only their reports were added.
    if (t.local) expect(storedBytes(SHARED_ACCOUNT) - before).toBeLessThan(size / 2);

    // Nine jobs deleted: the tenth still delivers its source, byte for byte.
    for (const id of ids.slice(0, 9)) expect((await api('DELETE', `/jobs/${id}`, { key })).status).toBe(200);
    const last = (await api('GET', `/jobs/${ids[9]}`, { key })).body.job;
    const source = await fetch(last.tasks[0].originalArtifact.downloadUrl);
    expect(source.status).toBe(200);
    expect(Buffer.from(await source.arrayBuffer()).equals(await readFile(file))).toBe(true);
    // The last one deleted too: the fileRef is still within its time, so new jobs can still use it.
    expect((await api('DELETE', `/jobs/${ids[9]}`, { key })).status).toBe(200);
    const again = await api('POST', '/jobs/validate', { body: { sources: [{ fileRef: up.fileRef, profile: '2b' }] }, key });
    expect([200, 202]).toContain(again.status);
    expect((await waitForJob(again.body.job.id, 120_000, key)).status).toBe('done');
  }, 300_000);

  it('storage itself refuses a file larger than the announced sizeBytes, and the fileRef stays unusable', async () => {
    const bytes = await onePagePdfBytes();
    const up = await createUpload(bytes.length - 10);
    const refused = await postForm(up.upload, new Blob([bytes]));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await refused.text()).toMatch(/EntityTooLarge/);
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: up.fileRef }] } });
    expectErrorShape(res, 400, 'source_not_uploaded');
    expect(res.body.param).toBe('sources[0].fileRef');
  });

  it('a fileRef whose file has not arrived yet is 400 source_not_uploaded', async () => {
    const up = await createUpload(1000);
    expectErrorShape(await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: up.fileRef }] } }), 400, 'source_not_uploaded');
  });

  it.skipIf(!target().otherKey)("another account's fileRef does not work", async () => {
    const bytes = await onePagePdfBytes();
    const up = await createUpload(bytes.length, target().otherKey);
    expect((await postForm(up.upload, new Blob([bytes]))).status).toBeLessThan(300);
    expectErrorShape(await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: up.fileRef }] } }), 400, 'source_not_uploaded');
  });

  it('sizeBytes must be 1 to 524288000', async () => {
    for (const sizeBytes of [0, 524288001, 1.5]) {
      const res = await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes } });
      expectErrorShape(res, 400, 'validation_error');
      expect(res.body.param).toBe('sizeBytes');
    }
  });
});
