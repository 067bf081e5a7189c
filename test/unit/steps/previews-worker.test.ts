import { describe, expect, it } from 'vitest';
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
    expect(step.result as PreviewsStepResult).toEqual({ pages: 2, failures: [] });
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
});
