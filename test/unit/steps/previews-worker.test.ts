import { describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { useWorkerServices } from './support/worker-services';
import { handler as previews } from '../../../lambdas/steps/previews';
import type { PreviewsStepResult } from '../../../lambdas/domain/step-results';
import { buildPdf, pngBytes } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };

describe('the previews worker', () => {
  it('stores one image per page and a thumbnail, with page and pixel size, and outcome na', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 2 }), ingested: pdf, steps: [{ type: 'previews', params: { format: 'png', dpi: 36 } }] }] });
    await expect(previews(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'na' });
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    expect(step.result as PreviewsStepResult).toEqual({ pages: 2, failures: [], totalPages: 2 });
    const pages = step.outputs.filter((o) => o.role === 'preview');
    expect(pages.map((p) => [p.page, p.fileName, p.kind, p.mimeType])).toEqual([
      [1, 'card-page-1.png', 'image', 'image/png'],
      [2, 'card-page-2.png', 'image', 'image/png'],
    ]);
    expect(step.outputs.filter((o) => o.role === 'thumbnail')).toHaveLength(1);
    // A4 at 36 dpi is about 298 × 421 px; the stored image is what the record says.
    const meta = await sharp(Buffer.from(await t.services.blobs.getBytes(pages[0]!.key))).metadata();
    expect([meta.width, meta.height]).toEqual([pages[0]!.width, pages[0]!.height]);
    expect(Math.abs(pages[0]!.width! - 298)).toBeLessThanOrEqual(1);
    expect(step.runtimeParams).toMatchObject({ format: 'png', dpi: 36 });
  });

  it('records how many pages the file has beside how many were rendered: pages 2 of a 3-page file', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 3 }), ingested: pdf, steps: [{ type: 'previews', params: { format: 'png', dpi: 18, pages: '2', thumbnail: false } }] }] });
    await expect(previews(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done' });
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]!.result).toEqual({ pages: 1, failures: [], totalPages: 3 });
  });

  it('counts the pages it renders on the step\'s record, out of the pages selected', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 4 }), ingested: pdf, steps: [{ type: 'previews', params: { format: 'png', dpi: 18, pages: '1-3' } }] }] });
    await previews(stepEvent(graph, 0, 0));
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]!.pages).toEqual({ total: 3, done: { main: 3 } });
  });

  it('reads a PDF from storage in ranges, never downloading it; an image file is downloaded', async () => {
    const download = vi.spyOn(t.services.blobs, 'downloadToFile');
    const ranges = vi.spyOn(t.services.blobs, 'readRange');
    try {
      const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 2 }), ingested: pdf, steps: [{ type: 'previews', params: { format: 'png', dpi: 18 } }] }] });
      await expect(previews(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done' });
      expect(download).not.toHaveBeenCalled();
      expect(ranges).toHaveBeenCalled();

      const image = await createTestJob(t.services, {
        tasks: [{ bytes: await pngBytes({ width: 30, height: 20 }), name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [{ type: 'previews', params: { thumbnail: false } }] }],
      });
      await expect(previews(stepEvent(image, 0, 0))).resolves.toMatchObject({ status: 'done' });
      expect(download).toHaveBeenCalledTimes(1);
    } finally {
      download.mockRestore();
      ranges.mockRestore();
    }
  });

  it('ends in error, and is retried, when storage fails while pages are read: not as a damaged file', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 1 }), ingested: pdf, steps: [{ type: 'previews' }] }] });
    const ranges = vi.spyOn(t.services.blobs, 'readRange').mockRejectedValue(new Error('SlowDown: Please reduce your request rate.'));
    try {
      // An unexpected error is recorded and rethrown, so Step Functions retries the step.
      await expect(previews(stepEvent(graph, 0, 0))).rejects.toThrow(/could not be read from storage \(SlowDown/);
    } finally {
      ranges.mockRestore();
    }
  });

  it('renders raster files', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await pngBytes({ width: 300, height: 200 }), name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [{ type: 'previews', params: { format: 'jpeg', width: 150, thumbnail: false } }] }],
    });
    await previews(stepEvent(graph, 0, 0));
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    expect(step.outputs).toEqual([expect.objectContaining({ role: 'preview', page: 1, width: 150, height: 100, mimeType: 'image/jpeg', fileName: 'photo-page-1.jpg' })]);
  });

  it('is an error with the pages\' reasons when no requested page can be rendered', async () => {
    // 5000 pt squares at 600 dpi are far beyond the per-page pixel budget.
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await buildPdf({ pages: 2, pageDefaults: { size: [5000, 5000] } }), ingested: pdf, steps: [{ type: 'previews', params: { dpi: 600 } }] }],
    });
    await expect(previews(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'error' });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]!.status).toBe('error');
    expect(steps[0]!.reason).toMatch(/^No page could be rendered \(page 1: .*megapixels.*; page 2: .*\)\.$/);
    expect(task).toMatchObject({ status: 'error', reason: steps[0]!.reason });
  });

  describe('in batches (more pages than config previewBatchPages)', () => {
    async function plannedJob(pages: number, batchPages: number) {
      const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages }), ingested: pdf, steps: [{ type: 'previews', params: { format: 'png', dpi: 18 } }] }] });
      const before = t.services.config.previewBatchPages;
      t.services.config.previewBatchPages = batchPages;
      try {
        return { graph, event: stepEvent(graph, 0, 0), plan: await previews(stepEvent(graph, 0, 0)) };
      } finally {
        t.services.config.previewBatchPages = before;
      }
    }

    it('plans without rendering: the step stays running and the state machine gets the batches', async () => {
      const { graph, plan } = await plannedJob(5, 2);
      expect(plan).toMatchObject({
        status: 'batched',
        batches: [
          { index: 0, pages: [1, 2], thumbnail: true },
          { index: 1, pages: [3, 4], thumbnail: false },
          { index: 2, pages: [5], thumbnail: false },
        ],
      });
      const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
      expect(step).toMatchObject({ status: 'running', outputs: [] });
    });

    it('counts pages as batches render them: the plan records the total, each batch its own pages', async () => {
      const { graph, event, plan } = await plannedJob(5, 2);
      const pages = async () => taskView(await reload(t.services, graph.job.id), 0).steps[0]!.pages;
      expect(await pages()).toEqual({ total: 5, done: { main: 0 } });
      await previews({ ...event, phase: 'batch', batch: plan.batches![1] });
      expect(await pages()).toEqual({ total: 5, done: { main: 0, 'batch-1': 2 } });
      await previews({ ...event, phase: 'batch', batch: plan.batches![0] });
      await previews({ ...event, phase: 'batch', batch: plan.batches![2] });
      expect(await pages()).toEqual({ total: 5, done: { main: 0, 'batch-0': 2, 'batch-1': 2, 'batch-2': 1 } });
    });

    it('fails the step, and says so, when a batch left no record (its invocation was lost)', async () => {
      const { graph, event, plan } = await plannedJob(2, 1);
      await previews({ ...event, phase: 'batch', batch: plan.batches![0] });
      await expect(previews({ ...event, phase: 'finish' })).rejects.toThrow(/batches 1 left no record/);
      const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
      expect(steps[0]).toMatchObject({ status: 'error', reason: 'The previews step failed unexpectedly (Error).' });
      expect(task.status).toBe('error');
    });

    it('does nothing for a batch or finish of a step that is no longer running', async () => {
      const { graph, event, plan } = await plannedJob(2, 1);
      await previews({ ...event, phase: 'batch', batch: plan.batches![0] });
      await previews({ ...event, phase: 'batch', batch: plan.batches![1] });
      await expect(previews({ ...event, phase: 'finish' })).resolves.toMatchObject({ status: 'done' });
      const done = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
      expect(done.outputs.map((o) => [o.role, o.page])).toEqual([['preview', 1], ['preview', 2], ['thumbnail', 1]]);
      // The file's page count travels from the planning invocation to the finish.
      expect((done.result as PreviewsStepResult).totalPages).toBe(2);
      // A retried batch or finish (Step Functions retries Lambda errors) changes nothing.
      await expect(previews({ ...event, phase: 'batch', batch: plan.batches![1] })).resolves.toMatchObject({ status: 'done' });
      await expect(previews({ ...event, phase: 'finish' })).resolves.toMatchObject({ status: 'done' });
      expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]).toEqual(done);
    });

    it('refuses a batch item that is not one', async () => {
      const { event } = await plannedJob(2, 1);
      await expect(previews({ ...event, phase: 'batch', batch: { index: 0, pages: ['1'] } })).rejects.toThrow(/needs \{ index, pages, thumbnail \}/);
    });
  });
});
