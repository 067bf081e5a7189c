/**
 * PDF pages → image files, rendered by a pool of threads (render-pool.ts,
 * page-render.ts). Each page is rendered on its own: a page that is too large
 * for the pixel budget, throws, or takes too long fails alone with a reason,
 * and the others are delivered.
 */
import { selectPages, THUMBNAIL_PX, type PreviewOptions } from './options';
import { RenderPool, type PageJob, type RenderPoolOptions } from './render-pool';
import type { PreviewImage, PreviewOutcome } from './types';

/**
 * Pages not started within this time are reported instead of rendered, so the
 * step finishes with what it has well inside the worker's 15-minute limit.
 */
const TOTAL_BUDGET_MS = 600_000;

export interface RenderBudget {
  totalMs: number;
  now: () => number;
}

export async function renderPdfPreviews(
  bytes: Uint8Array,
  o: PreviewOptions,
  outDir: string,
  budget: RenderBudget = { totalMs: TOTAL_BUDGET_MS, now: Date.now },
  pool: RenderPoolOptions = {},
): Promise<PreviewOutcome> {
  const renderer = await RenderPool.open(bytes, pool);
  try {
    const numPages = renderer.numPages;
    const { pages, missing, overLimit } = selectPages(o.pages, numPages);
    const failures: PreviewOutcome['failures'] = [];
    for (const m of missing) {
      failures.push({ page: m.from, reason: `The document has ${numPages} pages; ${m.from === m.to ? `page ${m.from} does` : `pages ${m.from}–${m.to} do`} not exist.` });
    }
    for (const page of overLimit) failures.push({ page, reason: `Previews are limited to ${pages.length} pages per step; request this page in another step.` });

    const jobs: PageJob[] = pages.map((page) => ({ page, role: 'preview', options: o }));
    // Last, as before: the thumbnail is a convenience and waits for the pages.
    if (o.thumbnail) jobs.push({ page: 1, role: 'thumbnail', options: { ...o, width: THUMBNAIL_PX, height: THUMBNAIL_PX } });

    const started = budget.now();
    const stopped = `Rendering stopped after ${Math.round(budget.totalMs / 1000)} s before this page; request fewer pages or a lower resolution.`;
    const results = await renderer.render(jobs, outDir, (job) => (job.role === 'preview' && budget.now() - started > budget.totalMs ? stopped : null));

    const images: PreviewImage[] = [];
    results.forEach((r, i) => {
      const job = jobs[i]!;
      if (r.image) images.push(r.image);
      // The thumbnail's failure goes unsaid: page 1's own preview (or its failure) already tells the story.
      else if (job.role === 'preview') failures.push({ page: job.page, reason: r.reason });
    });
    return { images, failures: failures.sort((a, b) => a.page - b.page), pages };
  } finally {
    await renderer.close();
  }
}
