/**
 * Previews: page images of a PDF or image file, plus a thumbnail of page 1.
 * Pages that cannot be rendered are reported in `failures` with the reason;
 * the others are still delivered.
 *
 * renderPreviews renders the whole selection in one call. planPreviews does the
 * same for a selection of at most `batchPages` pages, and otherwise returns the
 * batches for renderPreviewBatch to render one by one, in parallel in the cloud.
 * Image sources are always rendered in one call: their pages are few and cheap.
 */
import { mkdir } from 'node:fs/promises';
import { MAX_PIXELS_PER_PAGE, readOptions, type PreviewOptions } from './options';
import { budgetUntil, renderPdfBatch, renderPdfPreviews, type RenderBudget } from './render-pdf';
import type { RangedFile } from './page-sources';
import { renderRasterPreviews } from './render-raster';
import type { PageBatch, PageFailureNote, PreviewImage } from './types';

export type { PageBatch, PageFailureNote, PreviewImage } from './types';
export type { RangedFile } from './page-sources';

/** A file in storage: a PDF is read in ranges (RangedFile), an image file is downloaded first. */
export interface StoredFile extends RangedFile {
  /** The whole file on disk (downloaded on the first call). */
  download(): Promise<string>;
}

export interface PreviewsInput {
  /** A file on disk, or one in storage. */
  file: string | StoredFile;
  fileType: 'pdf' | 'raster';
  params: Record<string, unknown>;
  outDir: string;
  /**
   * When rendering must be over (epoch ms): a page still rendering then is
   * stopped (its thread ended) and pages not started are not started; each
   * is reported with the reason. The caller's own time limit (a step's budget).
   */
  deadline?: number;
  /**
   * Told as each page image of the call is finished or given up: pages done,
   * and the pages the call renders (a batch's, or the whole selection's). Not
   * called when the call only plans batches.
   */
  onPage?: (done: number, total: number) => void;
}

export interface PreviewsResult {
  images: PreviewImage[];
  failures: PageFailureNote[];
  runtimeParams: Record<string, unknown>;
  /** How many pages the file has. */
  totalPages: number;
}

export type PreviewsPlan =
  | ({ kind: 'rendered' } & PreviewsResult)
  | {
      kind: 'batched';
      batches: PageBatch[];
      /** Pages requested but not in the document or over the limit; the batches' own failures come later. */
      failures: PageFailureNote[];
      runtimeParams: Record<string, unknown>;
      totalPages: number;
    };

export async function renderPreviews(input: PreviewsInput): Promise<PreviewsResult> {
  const plan = await planPreviews(input, Infinity);
  if (plan.kind !== 'rendered') throw new Error('An unbounded batch cannot be split');
  const { kind: _, ...result } = plan;
  return result;
}

export async function planPreviews(input: PreviewsInput, batchPages: number): Promise<PreviewsPlan> {
  const o = readOptions(input.params);
  await mkdir(input.outDir, { recursive: true });
  if (input.fileType === 'raster') {
    const outcome = await renderRasterPreviews(typeof input.file === 'string' ? input.file : await input.file.download(), o, input.outDir);
    return { kind: 'rendered', images: outcome.images, failures: outcome.failures, runtimeParams: runtimeParamsOf(o, outcome.pages), totalPages: outcome.totalPages };
  }
  const outcome = await renderPdfPreviews(input.file, o, input.outDir, budgetOf(input), undefined, batchPages);
  if ('batches' in outcome) return { kind: 'batched', batches: outcome.batches, failures: outcome.failures, runtimeParams: runtimeParamsOf(o, outcome.pages), totalPages: outcome.totalPages };
  return { kind: 'rendered', images: outcome.images, failures: outcome.failures, runtimeParams: runtimeParamsOf(o, outcome.pages), totalPages: outcome.totalPages };
}

/** One batch of a plan from planPreviews, with the same params. */
export async function renderPreviewBatch(input: PreviewsInput, batch: PageBatch): Promise<{ images: PreviewImage[]; failures: PageFailureNote[] }> {
  if (input.fileType !== 'pdf') throw new Error('Only PDF previews are rendered in batches');
  const o = readOptions(input.params);
  await mkdir(input.outDir, { recursive: true });
  return renderPdfBatch(input.file, o, input.outDir, batch, budgetOf(input));
}

const budgetOf = (input: PreviewsInput): RenderBudget => ({ ...budgetUntil(input.deadline), ...(input.onPage ? { onPage: input.onPage } : {}) });

function runtimeParamsOf(o: PreviewOptions, pages: number[]): Record<string, unknown> {
  return {
    format: o.format,
    ...(o.width !== null || o.height !== null ? { width: o.width, height: o.height } : { dpi: o.dpi }),
    ...(o.format === 'png' ? {} : { quality: o.quality }),
    background: o.background,
    pages,
    thumbnail: o.thumbnail,
    maxPixelsPerPage: MAX_PIXELS_PER_PAGE,
  };
}
