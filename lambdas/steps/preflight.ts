/**
 * Preflight worker (state `Preflight`, for `preflight` and `repreflight` steps):
 * checks the task's current file against a profile. A repreflight without its own
 * profileId uses the profile of the preflight before it, so "fixed" is judged by
 * the same rules as "broken" (step-params.ts). The engine runs in its own
 * thread with a time budget and a heap limit (engine/guard/preflight-guarded.ts).
 *
 * For a PDF with located findings the step also delivers proof images (role
 * `proof`, engine/previews/proof.ts). They are a picture of the report, not
 * part of the verdict: when they cannot be made the report is still
 * delivered and the step's audit sentence says why the proofs are missing.
 *
 * Time (step-budget.ts): the engine gets its configured budget or what is left
 * of the step's work time, whichever is less; the proofs then get
 * PROOF_BUDGET_MS or what is left, whichever is less, and past it the report
 * is delivered without them, with a clause saying why. The renderer is given
 * that deadline and stops there (a page still rendering has its thread
 * ended, engine/previews/render-pool.ts); whatever was rendered by then is
 * delivered. Proof images are
 * optional outputs: the report is stored first, and proofs not stored in time
 * are left out rather than failing the step.
 */
import '../platform/polyfills';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { UnprocessableFileError } from '../domain/errors';
import { preflightGuarded, preflightLimits } from '../engine/guard/preflight-guarded';
import type { PreflightReport } from '../engine/preflight';
import { renderProofs } from '../engine/previews/proof';
import { stepHandler, type StepOutputFile, type StepWorker } from './step-runner';
import { engineTimeoutMs, withinWorkBudget } from './work-budget';
import { renderDeadline, seconds, within, type StepBudget } from './step-budget';
import { profileIdOf, resolveProfile } from './step-params';
import { derivedFileName } from '../domain/file-names';
import { sourceFileName } from './task-graph';
import { pageCounter } from './step-progress';
import { asError, logger } from '../observability/logger';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The proofs' own budget: a picture of the report is not worth more time than the report itself. */
export const PROOF_BUDGET_MS = 60_000;
/** Below this, proofs are not started at all. */
const MIN_PROOF_MS = 1_000;

/** Proof images as step outputs, and a clause for the audit sentence ("" when there is nothing to say). */
async function proofOutputs(
  report: PreflightReport,
  inputPath: string,
  workDir: string,
  fileName: (label: string) => string,
  budget: StepBudget,
): Promise<{ outputs: StepOutputFile[]; note: string }> {
  const ms = Math.min(PROOF_BUDGET_MS, budget.workLeftMs());
  if (ms < MIN_PROOF_MS) return { outputs: [], note: '; no proof images: no time was left for them' };
  const unfinished = `; no proof images: they were not finished within ${seconds(ms)} s`;
  try {
    // The renderer stops itself a little before the end; if it has not returned by the end, it is abandoned.
    const ended = await within(renderProofs({ path: inputPath, report, outDir: join(workDir, 'proofs'), deadline: renderDeadline(ms) }), budget.now() + ms, budget.now);
    if (!ended.done) return { outputs: [], note: unfinished };
    const { images, failures } = ended.value;
    const outputs: StepOutputFile[] = images.map((image) => ({
      path: image.path,
      keyName: `proof-page-${image.page}.jpg`,
      artifact: { kind: 'image', role: 'proof', mimeType: image.mimeType, fileName: fileName(`proof-page-${image.page}`), page: image.page, width: image.width, height: image.height },
      optional: true,
    }));
    const made = images.length > 0 ? `; ${plural(images.length, 'proof image')}` : '';
    const missed = failures.length > 0 ? `; no proof of ${failures.length === 1 ? 'page' : 'pages'} ${failures.map((f) => f.page).join(', ')} (${failures[0]!.reason.replace(/\.$/, '')})` : '';
    return { outputs, note: made + missed };
  } catch (e) {
    // Never the step's failure: the report is what was asked for.
    logger.warn({ message: 'proof images failed; the report goes without them', worker: 'preflight' }, asError(e));
    const why = e instanceof UnprocessableFileError ? `: ${e.message.replace(/\.$/, '')}` : '';
    return { outputs: [], note: `; the proof images could not be made${why}` };
  }
}

export const preflightWorker: StepWorker = {
  name: 'preflight',
  async run({ services, graph, job, task, step, fileType, inputFile, input, workDir, budget }) {
    const inputPath = await input.local();
    const profile = resolveProfile(graph, step);
    const profileId = profileIdOf(profile);
    // A file that exhausts the budget or the heap ends the task in `error`
    // with a sentence saying which (an UnprocessableFileError).
    const limits = preflightLimits(services.config);
    // The pages analysed so far, on the step's record, for its `progress` (step-progress.ts).
    const counter = pageCounter(services.jobs, step, 'main');
    const { outcome, report, runtimeParams } = await withinWorkBudget(
      budget,
      preflightGuarded(
        {
          path: inputPath,
          // The name of the file judged (after an autofix, the fixed file's), beside its size in the report's `source`.
          name: inputFile.fileName,
          fileType: fileType === 'raster' ? 'raster' : 'pdf',
          profileId: profile,
          context: job.context,
        },
        { ...limits, timeoutMs: engineTimeoutMs(budget, limits.timeoutMs, 'Preflight') },
        counter,
      ),
      'Preflight',
    );
    await counter.flush();
    const reportPath = join(workDir, 'preflight-report.json');
    await writeFile(reportPath, JSON.stringify(report));
    const { errors, warnings } = report.summary;
    const detail = `: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    const name = sourceFileName(task);
    const proofs =
      fileType === 'pdf'
        ? await proofOutputs(report, inputPath, workDir, (label) => derivedFileName(name, `${step.type}-${label}`, 'jpg'), budget)
        : { outputs: [], note: '' };
    return {
      outcome,
      result: report,
      // profileId is what a later repreflight reuses, so it is always recorded.
      runtimeParams: { ...runtimeParams, profileId: runtimeParams.profileId ?? profileId },
      outputs: [
        {
          path: reportPath,
          keyName: 'preflight-report.json',
          artifact: {
            kind: 'report',
            role: 'preflight-report',
            mimeType: 'application/json',
            fileName: derivedFileName(name, `${step.type}-report`, 'json'),
          },
        },
        ...proofs.outputs,
      ],
      summary: `The ${step.type} step finished with outcome ${outcome} (profile ${profileId}${detail})${proofs.note}.`,
    };
  },
};

export const handler = stepHandler(preflightWorker);
