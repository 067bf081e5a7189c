import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { useWorkerServices } from './support/worker-services';
import { handler as optimize } from '../../../lambdas/steps/optimize';
import type { PresentedArtifact } from '../../../lambdas/domain/present/artifacts';
import { presentJob } from '../../../lambdas/domain/present/job';
import { openPdfBytes } from '../../../lambdas/engine/core/load-pdf';
import type { OptimizeStepResult } from '../../../lambdas/domain/step-results';
import { buildPdf } from '../../support/pdf-fixtures';
import { addPage, busyContent, save, stream, withFont } from '../engine/optimize/fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';
import { fileAfterSteps, inputFileOf } from '../../../lambdas/steps/task-graph';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };

/** Two pages of uncompressed content: recompressing makes the file much smaller. */
async function bloatedPdf(): Promise<Uint8Array> {
  const { doc, font } = await withFont();
  addPage(doc, stream(doc, busyContent(1), null), font);
  addPage(doc, stream(doc, busyContent(2), null), font);
  return save(doc);
}

/** A signed file is never rewritten (engine/optimize/pdf-constraints.ts): nothing to make smaller. */
async function signedPdf(): Promise<Uint8Array> {
  const { doc, font } = await withFont();
  addPage(doc, stream(doc, busyContent(), null), font);
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [], SigFlags: 3 }));
  return save(doc);
}

/** The job as GET /jobs/{id} shows it, once the step is done. */
async function presented(jobId: string) {
  const graph = await reload(t.services, jobId);
  return presentJob({ ...graph, job: { ...graph.job, status: 'done' } }, { blobs: t.services.blobs, expiresIn: 3600 });
}

describe('the optimize worker', () => {
  it('stores a smaller file as the step\'s optimized output, which becomes the task\'s file', async () => {
    const bytes = await bloatedPdf();
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'optimize', params: { pdf: { objectStreams: false } } }] }] });
    await expect(optimize(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'fixed' });

    const { task, steps: [step], audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(step!.outputs).toEqual([expect.objectContaining({ kind: 'file', role: 'optimized', mimeType: 'application/pdf', fileName: 'card-optimized.pdf' })]);
    const optimized = step!.outputs[0]!;
    expect([task.currentFile, task.originalArtifact!.role]).toEqual([optimized, 'source']);

    const result = step!.result as OptimizeStepResult;
    expect(result).toMatchObject({ changed: true, sizeBytesBefore: bytes.length, sizeBytes: optimized.sizeBytes, appliedFixes: expect.arrayContaining(['streams.recompress']) });
    expect(result.appliedFixes).not.toContain('file.object-streams');
    expect(optimized.sizeBytes).toBeLessThan(bytes.length);
    expect(optimized.sizeBytes).toBe((await t.services.blobs.head(optimized.key))!.sizeBytes);
    await expect(openPdfBytes(await t.services.blobs.getBytes(optimized.key))).resolves.toBeDefined();
    // What was applied, every default filled in.
    expect(step!.runtimeParams).toMatchObject({ pdf: { preset: 'print', maxImagePpi: 300, objectStreams: false, recompress: true } });
    expect(audit.at(-1)!.message).toMatch(/smaller, from \d+ to \d+ bytes/);
  });

  it('hands the optimized file to the steps after it, and to the finaliser, which derive the task\'s file from the steps that finished', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await bloatedPdf(), ingested: pdf, steps: [{ type: 'optimize' }, { type: 'previews' }] }] });
    await optimize(stepEvent(graph, 0, 0));
    const after = await reload(t.services, graph.job.id);
    const { task, steps } = taskView(after, 0);
    expect(inputFileOf(after, task, steps[1]!)).toEqual(steps[0]!.outputs[0]);
    expect(fileAfterSteps(task, steps)).toMatchObject({ role: 'optimized' });
  });

  it('presents results.optimize[] with the output, its presigned download and the fixes, and delivers the optimized file', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await bloatedPdf(), ingested: pdf, steps: [{ type: 'optimize' }] }] });
    await optimize(stepEvent(graph, 0, 0));
    await t.services.jobs.transitionTask(graph.job.id, graph.tasks[0]!.id, ['running'], 'done', { outcome: 'na' });
    const job = await presented(graph.job.id);
    const step = job.tasks[0]!.steps![0]!;
    // Its one output is the optimized file (an artifact, not an entry of step-outputs.ts).
    const file = step.outputs[0] as PresentedArtifact;
    const result = (await reload(t.services, graph.job.id)).steps[0]!.result as OptimizeStepResult;

    expect(job.results!.optimize).toEqual([
      {
        taskId: graph.tasks[0]!.id,
        fileRef: null,
        source: 'card.pdf',
        fileType: 'pdf',
        mimeType: 'application/pdf',
        status: 'done',
        outcome: 'fixed',
        output: {
          bucket: file.bucket,
          key: file.key,
          sizeBytes: file.sizeBytes,
          sizeBytesBefore: result.sizeBytesBefore,
          downloadUrl: expect.stringContaining(file.key.split('/').at(-1)!),
          expiresIn: 3600,
          appliedFixes: result.appliedFixes,
          skippedFixes: result.skippedFixes,
        },
      },
    ]);
    expect(job.results!.optimize![0]!.output!.sizeBytes).toBeLessThan(job.results!.optimize![0]!.output!.sizeBytesBefore);
    expect(job.deliverables).toEqual([expect.objectContaining({ taskId: graph.tasks[0]!.id, role: 'optimized', key: file.key })]);
  });

  it('reports unchanged, with no output, output null and the original as the deliverable, when nothing makes the file smaller', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await signedPdf(), ingested: pdf, steps: [{ type: 'optimize' }] }] });
    await expect(optimize(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'unchanged' });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'done', outcome: 'unchanged', outputs: [] });
    expect(steps[0]!.result).toMatchObject({ changed: false, appliedFixes: [] });
    expect(task.currentFile).toEqual(task.originalArtifact);

    await t.services.jobs.transitionTask(graph.job.id, task.id, ['running'], 'done', { outcome: 'na' });
    const job = await presented(graph.job.id);
    expect(job.results!.optimize).toEqual([expect.objectContaining({ taskId: task.id, status: 'done', outcome: 'unchanged', output: null })]);
    expect(job.deliverables).toEqual([expect.objectContaining({ taskId: task.id, role: 'source', key: task.originalArtifact!.key })]);
  });

  it('ends the task in error with a sentence when the file cannot be opened (a PDF that needs a password)', async () => {
    const bytes = await buildPdf({ encrypt: { userPassword: 'secret', ownerPassword: 'owner' } });
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'optimize' }] }] });
    await expect(optimize(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'error', outcome: null });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'error', outputs: [] });
    expect(task.status).toBe('error');
    expect(task.reason).toMatch(/password/i);
  });
});
