/**
 * Previews worker (state `Previews`): renders page images (and a thumbnail) of
 * the current file. A page that cannot be rendered fails alone and is listed in
 * the result's `failures`; only when no requested page could be rendered is the
 * step an error, with the pages' reasons.
 */
import '../platform/polyfills';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UnprocessableFileError } from '../domain/errors';
import type { PreviewsStepResult } from '../domain/step-results';
import { renderPreviews } from '../engine/previews';
import { runStep, type StepInvocation, type StepOutputFile, type StepRunSummary, type StepWorker } from './step-runner';
import { derivedFileName, extensionForMime } from '../domain/file-names';
import { sourceFileName } from './task-graph';

/** Reasons are listed up to this many pages; a 500-page failure stays one readable sentence. */
const MAX_LISTED_FAILURES = 5;

function noPageRendered(failures: { page: number; reason: string }[]): string {
  const listed = failures.slice(0, MAX_LISTED_FAILURES).map((f) => `page ${f.page}: ${f.reason.replace(/\.$/, '')}`);
  const more = failures.length > MAX_LISTED_FAILURES ? `; and ${failures.length - MAX_LISTED_FAILURES} more pages` : '';
  return `No page could be rendered (${listed.join('; ')}${more}).`;
}

export const previewsWorker: StepWorker = {
  name: 'previews',
  async run({ task, step, fileType, inputPath, workDir }) {
    const outDir = join(workDir, 'previews');
    await mkdir(outDir, { recursive: true });
    const rendered = await renderPreviews({
      path: inputPath,
      fileType: fileType === 'raster' ? 'raster' : 'pdf',
      params: step.params ?? {},
      outDir,
    });
    const pages = rendered.images.filter((i) => i.role === 'preview');
    if (pages.length === 0 && rendered.failures.length > 0) throw new UnprocessableFileError(noPageRendered(rendered.failures));

    const name = sourceFileName(task);
    const outputs: StepOutputFile[] = rendered.images.map((image) => {
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
    const result: PreviewsStepResult = { pages: pages.length, failures: rendered.failures };
    const failed = rendered.failures.length > 0 ? `; ${rendered.failures.length} could not be rendered` : '';
    return {
      outcome: 'na',
      result,
      runtimeParams: rendered.runtimeParams,
      outputs,
      summary: `The previews step rendered ${pages.length} page image${pages.length === 1 ? '' : 's'}${failed}.`,
    };
  },
};

export function handler(event: StepInvocation): Promise<StepRunSummary> {
  return runStep(event, previewsWorker);
}
