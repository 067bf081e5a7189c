/**
 * PDF pages → image files, rendered by a pool of threads (render-pool.ts,
 * page-thread.ts) from a file on disk or in storage (RangedFile): PDFium reads
 * only what the pages need, pdf.js (the fallback) reads it whole. Each page is rendered on its own: a page that is too large
 * for the pixel budget, throws, or takes too long fails alone with a reason,
 * and the others are delivered.
 *
 * A selection larger than one batch can be planned instead of rendered
 * (`batchPages`): the caller then renders each batch separately, in parallel in
 * the cloud (a Map over batches, step-definitions/job-pipeline.ts), with
 * renderPdfBatch.
 */
import { selectionFailures, selectPages, THUMBNAIL_PX, type PreviewOptions } from './options';
import type { RangedFile } from './page-sources';
import { RenderPool, type PageJob, type RenderPoolOptions } from './render-pool';
import type { PageBatch, PageFailureNote, PreviewImage, PreviewOutcome } from './types';

/**
 * Pages not started within this time are reported instead of rendered, so the
 * step finishes with what it has well inside the worker's 15-minute limit.
 */
const TOTAL_BUDGET_MS = 600_000;

export interface RenderBudget {
  /** Pages not started within this time of the first are reported instead of rendered. */
  totalMs: number;
  now: () => number;
  /** On `now`'s clock: every page still rendering then is stopped, and none starts after it. */
  stopAt?: number;
  /**
   * Not a limit but the caller's view of the same run: told, as each page
   * image is finished or given up, how many of the batch's pages are and how
   * many it has.
   */
  onPage?: (done: number, total: number) => void;
}

const defaultBudget = (): RenderBudget => ({ totalMs: TOTAL_BUDGET_MS, now: Date.now });

/** The default budget, ending at `deadline` (epoch ms) when one is given. */
export function budgetUntil(deadline: number | undefined): RenderBudget {
  return deadline === undefined ? defaultBudget() : { ...defaultBudget(), stopAt: deadline };
}

/** The selection, split into batches of at most `batchPages` pages; the thumbnail goes with the first. */
export interface BatchPlan {
  batches: PageBatch[];
  /** Requested pages that do not exist or are over the limit. */
  failures: PageFailureNote[];
  pages: number[];
  /** How many pages the file has. */
  totalPages: number;
}

export function renderPdfPreviews(file: string | RangedFile, o: PreviewOptions, outDir: string, budget?: RenderBudget, pool?: RenderPoolOptions): Promise<PreviewOutcome>;
export function renderPdfPreviews(
  file: string | RangedFile,
  o: PreviewOptions,
  outDir: string,
  budget: RenderBudget | undefined,
  pool: RenderPoolOptions | undefined,
  batchPages: number,
): Promise<PreviewOutcome | BatchPlan>;
/**
 * Renders the selected pages, or, when they are more than `batchPages`, returns
 * the plan of batches without rendering anything.
 */
export async function renderPdfPreviews(
  file: string | RangedFile,
  o: PreviewOptions,
  outDir: string,
  budget: RenderBudget = defaultBudget(),
  pool: RenderPoolOptions = {},
  batchPages = Infinity,
): Promise<PreviewOutcome | BatchPlan> {
  const renderer = await RenderPool.open(file, pool);
  try {
    const { pages, failures } = selection(o, renderer.numPages);
    if (pages.length > batchPages) return { batches: splitIntoBatches(pages, batchPages, o.thumbnail), failures, pages, totalPages: renderer.numPages };
    const rendered = await renderPages(renderer, { index: 0, pages, thumbnail: o.thumbnail }, o, outDir, budget);
    return { images: rendered.images, failures: [...failures, ...rendered.failures].sort((a, b) => a.page - b.page), pages, totalPages: renderer.numPages };
  } finally {
    await renderer.close();
  }
}

/** Renders one planned batch: its pages, and the thumbnail when the batch carries it. */
export async function renderPdfBatch(
  file: string | RangedFile,
  o: PreviewOptions,
  outDir: string,
  batch: PageBatch,
  budget: RenderBudget = defaultBudget(),
  pool: RenderPoolOptions = {},
): Promise<{ images: PreviewImage[]; failures: PageFailureNote[] }> {
  const renderer = await RenderPool.open(file, pool);
  try {
    // The plan came from this same file, so every page exists; a page that does not is reported, not rendered.
    const pages = batch.pages.filter((p) => p >= 1 && p <= renderer.numPages);
    const gone = batch.pages.filter((p) => !pages.includes(p)).map((page) => ({ page, reason: `The document has ${renderer.numPages} pages; page ${page} does not exist.` }));
    const rendered = await renderPages(renderer, { ...batch, pages }, o, outDir, budget);
    return { images: rendered.images, failures: [...gone, ...rendered.failures].sort((a, b) => a.page - b.page) };
  } finally {
    await renderer.close();
  }
}

export function splitIntoBatches(pages: number[], batchPages: number, thumbnail: boolean): PageBatch[] {
  const size = Math.max(1, Math.floor(batchPages));
  const batches: PageBatch[] = [];
  for (let i = 0; i < pages.length; i += size) batches.push({ index: batches.length, pages: pages.slice(i, i + size), thumbnail: false });
  if (batches[0]) batches[0].thumbnail = thumbnail;
  return batches;
}

function selection(o: PreviewOptions, numPages: number): { pages: number[]; failures: PageFailureNote[] } {
  const sel = selectPages(o.pages, numPages);
  return { pages: sel.pages, failures: selectionFailures(sel, numPages, 'document') };
}

async function renderPages(
  renderer: RenderPool,
  batch: PageBatch,
  o: PreviewOptions,
  outDir: string,
  budget: RenderBudget,
): Promise<{ images: PreviewImage[]; failures: PageFailureNote[] }> {
  const jobs: PageJob[] = batch.pages.map((page) => ({ page, role: 'preview', options: o }));
  // Last: the thumbnail is a convenience and waits for the pages.
  if (batch.thumbnail) jobs.push({ page: 1, role: 'thumbnail', options: { ...o, width: THUMBNAIL_PX, height: THUMBNAIL_PX } });

  const started = budget.now();
  const stopped = `Rendering stopped after ${Math.round(budget.totalMs / 1000)} s before this page; request fewer pages or a lower resolution.`;
  let pagesDone = 0;
  const settled = (job: PageJob) => {
    if (job.role === 'preview') budget.onPage?.(++pagesDone, batch.pages.length);
  };
  const results = await renderer.render(
    jobs,
    outDir,
    (job) => (job.role === 'preview' && budget.now() - started > budget.totalMs ? stopped : null),
    budget.stopAt === undefined ? undefined : { at: budget.stopAt, now: budget.now },
    settled,
  );

  const images: PreviewImage[] = [];
  const failures: PageFailureNote[] = [];
  results.forEach((r, i) => {
    const job = jobs[i]!;
    if (r.image) images.push(r.image);
    // The thumbnail's failure goes unsaid: page 1's own preview (or its failure) already tells the story.
    else if (job.role === 'preview') failures.push({ page: job.page, reason: r.reason });
  });
  return { images, failures };
}
