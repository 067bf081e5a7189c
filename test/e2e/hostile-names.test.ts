/**
 * Names a customer chooses reach no key, path or header unchanged (issue 16
 * item 1): a Japanese name well inside the 255-character limit once took the
 * local runtime down, because the storage stand-in keeps each object key as a
 * file path and a path segment may have 255 bytes at most (ENAMETOOLONG).
 */
import { describe, expect, it } from 'vitest';
import { api, postForm, waitForJob } from './support/client';
import { onePagePdfBase64, onePagePdfBytes } from './support/files';

/** 244 characters, 724 bytes of UTF-8: before the fix the stand-in died on it with ENAMETOOLONG and the runtime with it. */
const JAPANESE = `${'見積書と請求書の確認'.repeat(24)}.pdf`;

describe('a long name in another script works end to end', () => {
  it('with a base64 file: the job is done and the name is kept for the customer', async () => {
    expect([...JAPANESE]).toHaveLength(244);
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ file: await onePagePdfBase64(), name: JAPANESE }] } });
    expect(res.status).toBe(201);
    const done = await waitForJob(res.body.job.id);
    expect(done.tasks[0]).toMatchObject({ status: 'done', name: JAPANESE });
    expect(done.tasks[0].originalArtifact.fileName).toBe(JAPANESE);
    expect(done.tasks[0].originalArtifact.key).not.toContain('見積書');
    const download = await fetch(done.tasks[0].originalArtifact.downloadUrl);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(done.tasks[0].originalArtifact.sizeBytes);
  });

  it('through an upload (fileRef), fixed and optimized, every file is delivered', async () => {
    const bytes = await onePagePdfBytes({ javascript: true });
    const upload = await api('POST', '/uploads', { body: { sizeBytes: bytes.length } });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect((await postForm(upload.body.upload, new Blob([Buffer.from(bytes)]), JAPANESE)).status).toBeLessThan(300);
    const res = await api('POST', '/jobs', { body: { sources: [{ fileRef: upload.body.fileRef, name: JAPANESE, steps: [{ type: 'autofix' }, { type: 'optimize' }] }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await waitForJob(res.body.job.id);
    expect(done.tasks[0].status, JSON.stringify(done.tasks[0].steps)).toBe('done');
    for (const a of done.tasks[0].outputArtifacts) {
      expect(a.key).not.toMatch(/[^\x21-\x7e]/);
      expect(a.fileName.startsWith('見積書')).toBe(true);
      expect((await fetch(a.downloadUrl)).status).toBe(200);
    }
  });
});
