/**
 * docs/api.md §11 rule 11: POST /jobs/optimize over HTTP. Sync by default: a
 * file that gets smaller comes back at once with its step's outcome fixed, its
 * optimized file as the deliverable and results.optimize[0].output describing
 * it; one that does not (step outcome unchanged) stays the deliverable, output
 * null.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, waitForJob } from './support/client';
import sharp from 'sharp';
import { bloatedPdfBase64, heavyJpegBase64, onePagePdfBase64 } from './support/files';

describe('POST /jobs/optimize', () => {
  // The optimize function's first start (a thread loading the engine under tsx) can take longer
  // than the sync wait on a machine busy with other test files; the 200 below is about the sync
  // answer, not the cold start, so one async job warms the function first.
  beforeAll(async () => {
    const warm = await api('POST', '/jobs/optimize', { body: { async: true, sources: [{ file: await onePagePdfBase64() }] } });
    expect(warm.status, JSON.stringify(warm.body)).toBe(201);
    await waitForJob(warm.body.job.id, 120_000);
  }, 150_000);

  it('answers 200 with the smaller file: outcome fixed, role optimized, results.optimize[0].output with both sizes and a download of it', async () => {
    const file = await bloatedPdfBase64();
    const res = await api('POST', '/jobs/optimize', { body: { sources: [{ file, name: 'bloated.pdf', params: { pdf: { preset: 'print' } } }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = res.body.job;
    // No check step: the task's and job's outcome is na (docs/api.md §2); the step's is fixed.
    expect(job).toMatchObject({ status: 'done', outcome: 'na' });
    const [task] = job.tasks;
    expect(task.steps.map((s: any) => [s.type, s.outcome])).toEqual([['optimize', 'fixed']]);

    const output = job.results.optimize[0].output;
    expect(job.results.optimize[0]).toMatchObject({ taskId: task.id, fileType: 'pdf', status: 'done', outcome: 'fixed' });
    expect(output.sizeBytesBefore).toBe(Buffer.from(file, 'base64').length);
    expect(output.sizeBytes).toBeLessThan(output.sizeBytesBefore);
    expect(output.appliedFixes).toContain('streams.recompress');
    expect(output).toMatchObject({ expiresIn: 3600, skippedFixes: expect.any(Array) });

    const optimized = task.outputArtifacts.find((a: any) => a.role === 'optimized');
    expect(optimized).toMatchObject({ key: output.key, bucket: output.bucket, sizeBytes: output.sizeBytes, fileName: 'bloated-optimized.pdf' });
    expect(job.deliverables).toEqual([expect.objectContaining({ taskId: task.id, role: 'optimized', key: output.key })]);
    const download = await fetch(output.downloadUrl);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(output.sizeBytes);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });

  it('with async: true answers 201 { job, pending: true }; a file already small ends unchanged, output null, the original delivered', async () => {
    const first = await api('POST', '/jobs/optimize', { body: { sources: [{ file: await bloatedPdfBase64() }] } });
    // The optimized file cannot be made smaller again.
    const again = Buffer.from(await (await fetch(first.body.job.results.optimize[0].output.downloadUrl)).arrayBuffer()).toString('base64');
    const res = await api('POST', '/jobs/optimize', { body: { async: true, sources: [{ file: again, name: 'small.pdf' }] } });
    expect(res.status).toBe(201);
    expect(res.body.pending).toBe(true);
    const done = await waitForJob(res.body.job.id);
    expect(done).toMatchObject({ status: 'done', outcome: 'na' });
    expect(done.tasks[0].steps[0]).toMatchObject({ type: 'optimize', status: 'done', outcome: 'unchanged', outputs: [] });
    expect(done.results.optimize).toEqual([expect.objectContaining({ taskId: done.tasks[0].id, outcome: 'unchanged', output: null })]);
    expect(done.deliverables).toEqual([expect.objectContaining({ role: 'source' })]);
  });

  it('re-encodes a raster file with params.raster: smaller, resized to maxEdgePx, metadata stripped, still a JPEG', async () => {
    const file = await heavyJpegBase64();
    const res = await api('POST', '/jobs/optimize', { body: { sources: [{ file, name: 'photo.jpg', params: { raster: { quality: 80, maxEdgePx: 800 } } }] } });
    // Sync (the first test holds it to 200); a cold worker on a busy machine may outlast the wait: 202, then poll.
    expect([200, 202]).toContain(res.status);
    const job = res.status === 200 ? res.body.job : await waitForJob(res.body.job.id);
    expect(job.tasks[0]).toMatchObject({ fileType: 'raster', mimeType: 'image/jpeg' });
    const entry = job.results.optimize[0];
    expect(entry).toMatchObject({ fileType: 'raster', status: 'done', outcome: 'fixed' });
    expect(entry.output.appliedFixes).toEqual(expect.arrayContaining(['raster.resize', 'raster.strip-metadata', 'raster.reencode']));
    expect(entry.output.sizeBytes).toBeLessThan(entry.output.sizeBytesBefore / 2);
    const bytes = Buffer.from(await (await fetch(entry.output.downloadUrl)).arrayBuffer());
    expect(bytes.length).toBe(entry.output.sizeBytes);
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    // What EXIF is left holds orientation, resolution and pixel size only: the copyright and software fields are gone.
    expect(bytes.includes('Proofline test')).toBe(false);
    expect(bytes.includes('e2e fixture')).toBe(false);
  });

  it('refuses an option out of range with a 400 naming it', async () => {
    const res = await api('POST', '/jobs/optimize', { body: { sources: [{ file: await onePagePdfBase64(), params: { pdf: { maxImagePpi: 10 } } }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', param: 'sources[0].params.pdf.maxImagePpi' });
  });
});
