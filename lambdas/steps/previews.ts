/**
 * Previews worker: renders page images (and a thumbnail) of the current file.
 * A page that cannot be rendered fails alone and is listed in the result's
 * `failures`; only when no requested page could be rendered is the step an
 * error, with the pages' reasons.
 *
 * Three states invoke it (step-definitions/job-pipeline.ts):
 * - `Previews`: renders the selection, or, when it has more pages than one
 *   batch (config previewBatchPages), plans the batches and defers;
 * - `RenderPreviewBatch` (`phase: 'batch'`): one batch, in a Map over them;
 * - `FinishPreviews` (`phase: 'finish'`): gathers the batches and ends the step.
 *
 * While pages render, each invocation counts them on the step's record
 * (step-progress.ts): the planning one under `main` with the step's total, each
 * batch under its own name.
 *
 * Time (step-budget.ts): the renderer stops starting pages after its own
 * budget; should rendering still not be done by the step's work deadline, the
 * step (or batch) ends in `error` with a sentence, and the page images must be
 * stored by its store deadline. The renderer takes no deadline or abort
 * signal yet, so past the deadline its result is only ignored.
 */
import '../platform/polyfills';
import { join } from 'node:path';
import { UnprocessableFileError } from '../domain/errors';
import type { StoredArtifact } from '../domain/model';
import type { PreviewsStepResult } from '../domain/step-results';
import { planPreviews, renderPreviewBatch, type PageBatch, type PageFailureNote, type PreviewImage, type PreviewsInput } from '../engine/previews';
import { runStep, stepLogKeys, type StepInvocation, type StepOutputFile, type StepRunSummary, type StepWorkInput } from './step-runner';
import { withinWorkBudget } from './work-budget';
import { renderDeadline, type InvocationContext } from './step-budget';
import { finishBatchedStep, runStepBatch, type BatchDone, type BatchedStepWorker, type BatchInvocation, type FinishInvocation } from './batched-step';
import { derivedFileName, extensionForMime } from '../domain/file-names';
import { sourceFileName } from './task-graph';
import { pageCounter, type PageCounter } from './step-progress';
import { withInvocationLog } from '../observability/invocation';

/** Reasons are listed up to this many pages; a 500-page failure stays one readable sentence. */
const MAX_LISTED_FAILURES = 5;

/** What the planning invocation keeps for the finishing one. */
interface PreviewsCarry {
  failures: PageFailureNote[];
  runtimeParams: Record<string, unknown>;
  totalPages: number;
}

/** "page 3: why; page 9: why; and 4 more pages" */
function listFailures(failures: PageFailureNote[]): string {
  const listed = failures.slice(0, MAX_LISTED_FAILURES).map((f) => `page ${f.page}: ${f.reason.replace(/\.$/, '')}`);
  const more = failures.length > MAX_LISTED_FAILURES ? `; and ${failures.length - MAX_LISTED_FAILURES} more pages` : '';
  return `${listed.join('; ')}${more}`;
}

// A PDF is read in ranges: pages 1–3 of a 500 MB file need a few MB of it. An image file is downloaded.
const previewsInput = ({ step, fileType, input, workDir, budget }: StepWorkInput, counter: PageCounter, withTotal: boolean): PreviewsInput => ({
  file: { size: input.size, read: input.read, download: input.local },
  fileType: fileType === 'raster' ? ('raster' as const) : ('pdf' as const),
  params: step.params ?? {},
  outDir: join(workDir, 'previews'),
  // Pages still rendering then are stopped and reported; those done are delivered.
  deadline: renderDeadline(budget.workLeftMs()),
  // A batch knows only its own pages; the planning invocation recorded the step's.
  onPage: (done, total) => counter(done, withTotal ? total : undefined),
});

/** The pages rendered so far, on the step's record, for its `progress` (step-progress.ts). */
const counterOf = (input: StepWorkInput, part: string): PageCounter => pageCounter(input.services.jobs, input.step, part);

function outputFiles(images: PreviewImage[], input: StepWorkInput): StepOutputFile[] {
  const name = sourceFileName(input.task);
  return images.map((image) => {
    const ext = extensionForMime(image.mimeType) ?? 'img';
    const label = image.role === 'thumbnail' ? 'thumbnail' : `page-${image.page}`;
    return {
      path: image.path,
      keyName: `${label}.${ext}`,
      artifact: {
        kind: 'image',
        role: image.role,
        mimeType: image.mimeType,
        fileName: derivedFileName(name, label, ext),
        page: image.page,
        width: image.width,
        height: image.height,
      },
    };
  });
}

/** The step's ending, however many invocations rendered it. */
function ending(pageImages: number, failures: PageFailureNote[], runtimeParams: Record<string, unknown>, totalPages: number) {
  const sorted = [...failures].sort((a, b) => a.page - b.page);
  if (pageImages === 0 && sorted.length > 0) throw new UnprocessableFileError(`No page could be rendered (${listFailures(sorted)}).`);
  const result: PreviewsStepResult = { pages: pageImages, failures: sorted, totalPages };
  // The task's audit log is where a client reads which pages are missing, and why.
  const failed = sorted.length > 0 ? `; ${sorted.length} ${sorted.length === 1 ? 'page was' : 'pages were'} not rendered (${listFailures(sorted)})` : '';
  return {
    outcome: 'na' as const,
    result,
    runtimeParams,
    summary: `The previews step rendered ${pageImages} page image${pageImages === 1 ? '' : 's'}${failed}.`,
  };
}

function readBatch(raw: unknown): PageBatch {
  const b = raw as Partial<PageBatch> | null;
  const pageList = Array.isArray(b?.pages) && b.pages.every((p) => Number.isInteger(p) && p >= 1);
  if (!b || !Number.isInteger(b.index) || b.index! < 0 || !pageList || typeof b.thumbnail !== 'boolean') {
    throw new Error('A previews batch needs { index, pages, thumbnail }');
  }
  return { index: b.index!, pages: b.pages!, thumbnail: b.thumbnail };
}

/** Pages in order, then the thumbnail, as a one-invocation step records them. */
const artifactOrder = (a: StoredArtifact, b: StoredArtifact): number =>
  Number(a.role === 'thumbnail') - Number(b.role === 'thumbnail') || (a.page ?? 0) - (b.page ?? 0);

export const previewsWorker: BatchedStepWorker<PageBatch, PageFailureNote[]> = {
  name: 'previews',
  async run(input) {
    const counter = counterOf(input, 'main');
    const plan = await withinWorkBudget(input.budget, planPreviews(previewsInput(input, counter, true), input.services.config.previewBatchPages), 'Rendering the page images');
    if (plan.kind === 'batched') {
      counter(0, plan.batches.reduce((n, b) => n + b.pages.length, 0));
      await counter.flush();
      const carry: PreviewsCarry = { failures: plan.failures, runtimeParams: plan.runtimeParams, totalPages: plan.totalPages };
      return { deferred: true, batches: plan.batches, carry };
    }
    await counter.flush();
    const pageImages = plan.images.filter((i) => i.role === 'preview').length;
    return { ...ending(pageImages, plan.failures, plan.runtimeParams, plan.totalPages), outputs: outputFiles(plan.images, input) };
  },
  readBatch,
  async runBatch(input, batch) {
    const counter = counterOf(input, `batch-${batch.index}`);
    const rendered = await withinWorkBudget(input.budget, renderPreviewBatch(previewsInput(input, counter, false), batch), 'Rendering the page images');
    await counter.flush();
    return { outputs: outputFiles(rendered.images, input), result: rendered.failures };
  },
  finish(carry, batches: BatchDone<PageFailureNote[]>[]) {
    const { failures, runtimeParams, totalPages } = carry as PreviewsCarry;
    const outputs = batches.flatMap((b) => b.outputs).sort(artifactOrder);
    const pageImages = outputs.filter((a) => a.role === 'preview').length;
    return { ...ending(pageImages, [...failures, ...batches.flatMap((b) => b.result)], runtimeParams, totalPages), outputs };
  },
};

type PreviewsEvent = StepInvocation | BatchInvocation | FinishInvocation;

export function handler(event: PreviewsEvent, context?: InvocationContext): Promise<StepRunSummary> {
  return withInvocationLog(context, stepLogKeys(event), () => {
    if ('phase' in event && event.phase === 'batch') return runStepBatch(event, previewsWorker, context);
    if ('phase' in event && event.phase === 'finish') return finishBatchedStep(event, previewsWorker);
    return runStep(event, previewsWorker, context);
  });
}
