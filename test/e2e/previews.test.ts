/**
 * docs/api.md §5 previews: a large selection is rendered in page batches
 * in parallel (the pipeline's Map over batches; 20 pages a batch unless
 * PREVIEW_BATCH_PAGES says otherwise), and the client sees one previews step
 * with every page, in order, as if one invocation had rendered them.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';

describe('POST /jobs/previews of a document larger than one batch', () => {
  it('delivers every requested page in order, the thumbnail, and the pages that do not exist as failures', async () => {
    const res = await api('POST', '/jobs/previews', {
      body: { sources: [{ file: await onePagePdfBase64({ pages: 45 }), name: 'catalogue.pdf', params: { format: 'png', width: 48, pages: '1-45,47' } }] },
    });
    expect(res.status).toBe(201);
    const job = await waitForJob(res.body.job.id, 120_000);
    expect(job.status).toBe('done');
    const [task] = job.tasks;
    const [step] = task.steps;
    expect(step).toMatchObject({ type: 'previews', status: 'done', outcome: 'na' });
    expect(step.runtimeParams).toMatchObject({ format: 'png', width: 48, pages: Array.from({ length: 45 }, (_, i) => i + 1) });

    const pages = step.outputs.filter((a: any) => a.role === 'preview');
    expect(pages.map((a: any) => a.page)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(step.outputs.filter((a: any) => a.role === 'thumbnail').map((a: any) => a.page)).toEqual([1]);
    expect(job.results.previews).toEqual([expect.objectContaining({ taskId: task.id, pages: 45 })]);
    // The previews entry the existing clients read: 45 rendered of the 45 pages the file has (docs/api.md §11 rule 6).
    expect(step.outputs.at(-1)).toMatchObject({ kind: 'previews', count: 45, total: 45 });
    const finished = task.audit.filter((e: any) => e.event === 'step.finished' && e.stepId === step.id).map((e: any) => e.message);
    expect(finished).toEqual(['The previews step rendered 45 page images; 1 page was not rendered (page 47: The document has 45 pages; page 47 does not exist).']);

    const last = pages[44];
    const image = await sharp(Buffer.from(await (await fetch(last.downloadUrl)).arrayBuffer())).metadata();
    expect([image.format, image.width, image.height]).toEqual(['png', last.width, last.height]);
    expect(last.fileName).toBe('catalogue-page-45.png');

    const runs = await api('GET', `/jobs/${job.id}?expand=runs`);
    expect(runs.body.runs[0].proofs.map((p: any) => p.page)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  });
});
