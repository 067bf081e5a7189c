/**
 * Optimize worker (state `Optimize`): makes the task's current file smaller
 * without a visible change (docs/api.md §11 rule 11), with `params.pdf` or
 * `params.raster`. A smaller file is stored as the step's `optimized` output
 * and becomes the task's current file (its deliverable), as autofix's fixed
 * file does; otherwise the outcome is `unchanged` and the file stays as it was.
 *
 * The engine runs in a guarded thread within the lesser of
 * OPTIMIZE_TIMEOUT_SECONDS and what is left of the step's budget: an
 * unreadable or encrypted file, or one that exhausts the budget or the heap,
 * ends the task in `error` with a sentence (UnprocessableFileError, which the
 * step runner records), and no output is kept.
 */
import '../platform/polyfills';
import { basename, join } from 'node:path';
import type { OptimizeStepResult } from '../domain/step-results';
import { resolvePdfParams, resolveRasterParams, type OptimizeParams } from '../engine/optimize/params';
import { optimizeGuarded, optimizeLimits } from '../engine/guard/optimize-guarded';
import { stepHandler, type StepWorker } from './step-runner';
import { engineTimeoutMs, withinWorkBudget } from './work-budget';
import { keyExtension } from '../domain/blob-keys';
import { derivedFileName, extensionForMime } from '../domain/file-names';
import { sourceFileName } from './task-graph';
import type { FileType } from '../domain/model';
import { optimizeParamsOf } from './step-params';

export const optimizeWorker: StepWorker = {
  name: 'optimize',
  async run({ services, task, step, fileType, inputFile, input, workDir, budget }) {
    const inputPath = await input.local();
    const params = optimizeParamsOf(step);
    const ext = keyExtension(inputFile.fileName).slice(1) || (extensionForMime(inputFile.mimeType) ?? (fileType === 'pdf' ? 'pdf' : 'bin'));
    const outPath = join(workDir, `optimized.${ext}`);
    const limits = optimizeLimits(services.config);
    const optimized = await withinWorkBudget(
      budget,
      optimizeGuarded({ path: inputPath, outPath, fileType, params }, { ...limits, timeoutMs: engineTimeoutMs(budget, limits.timeoutMs, 'Optimizing') }),
      'Optimizing',
    );
    const result: OptimizeStepResult = {
      sizeBytesBefore: optimized.sizeBytesBefore,
      sizeBytes: optimized.sizeBytes,
      appliedFixes: optimized.appliedFixes,
      skippedFixes: optimized.skippedFixes,
      changed: optimized.changed,
    };
    const fileName = derivedFileName(sourceFileName(task), 'optimized', ext);
    return {
      outcome: optimized.changed ? 'fixed' : 'unchanged',
      result,
      runtimeParams: appliedParams(fileType, params),
      outputs: optimized.changed
        ? [
            {
              path: outPath,
              // The key is ours, never the customer's name (domain/blob-keys.ts).
              keyName: basename(outPath),
              artifact: { kind: 'file', role: 'optimized', mimeType: inputFile.mimeType, fileName },
            },
          ]
        : [],
      summary: optimized.changed
        ? `The optimize step made the file smaller, from ${optimized.sizeBytesBefore} to ${optimized.sizeBytes} bytes (applied: ${optimized.appliedFixes.join(', ')}).`
        : `The optimize step found nothing that makes the file smaller; the original stays the file.`,
    };
  },
};

/** The parameters applied, every default filled in, for the file type optimized. */
function appliedParams(fileType: FileType, params: OptimizeParams): Record<string, unknown> {
  return fileType === 'pdf' ? { pdf: resolvePdfParams(params.pdf) } : { raster: resolveRasterParams(params.raster) };
}

export const handler = stepHandler(optimizeWorker);
