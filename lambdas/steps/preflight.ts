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
 */
import '../platform/polyfills';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { UnprocessableFileError } from '../domain/errors';
import { preflightGuarded, preflightLimits } from '../engine/guard/preflight-guarded';
import type { PreflightReport } from '../engine/preflight';
import { renderProofs } from '../engine/previews/proof';
import { runStep, type StepInvocation, type StepOutputFile, type StepRunSummary, type StepWorker } from './step-runner';
import { resolveProfileId } from './step-params';
import { derivedFileName } from '../domain/file-names';
import { sourceFileName } from './task-graph';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Proof images as step outputs, and a clause for the audit sentence ("" when there is nothing to say). */
async function proofOutputs(report: PreflightReport, inputPath: string, workDir: string, fileName: (label: string) => string): Promise<{ outputs: StepOutputFile[]; note: string }> {
  try {
    const { images, failures } = await renderProofs({ path: inputPath, report, outDir: join(workDir, 'proofs') });
    const outputs: StepOutputFile[] = images.map((image) => ({
      path: image.path,
      keyName: `proof-page-${image.page}.jpg`,
      artifact: { kind: 'image', role: 'proof', mimeType: image.mimeType, fileName: fileName(`proof-page-${image.page}`), page: image.page, width: image.width, height: image.height },
    }));
    const made = images.length > 0 ? `; ${plural(images.length, 'proof image')}` : '';
    const missed = failures.length > 0 ? `; no proof of ${failures.length === 1 ? 'page' : 'pages'} ${failures.map((f) => f.page).join(', ')} (${failures[0]!.reason.replace(/\.$/, '')})` : '';
    return { outputs, note: made + missed };
  } catch (e) {
    // Never the step's failure: the report is what was asked for.
    console.log(JSON.stringify({ level: 'warn', worker: 'preflight', event: 'proofs-failed', error: (e as Error)?.name ?? 'Error' }));
    const why = e instanceof UnprocessableFileError ? `: ${e.message.replace(/\.$/, '')}` : '';
    return { outputs: [], note: `; the proof images could not be made${why}` };
  }
}

export const preflightWorker: StepWorker = {
  name: 'preflight',
  async run({ services, graph, job, task, step, fileType, inputPath, workDir }) {
    const profileId = resolveProfileId(graph, step);
    // A file that exhausts the budget or the heap ends the task in `error`
    // with a sentence saying which (an UnprocessableFileError).
    const { outcome, report, runtimeParams } = await preflightGuarded(
      {
        path: inputPath,
        fileType: fileType === 'raster' ? 'raster' : 'pdf',
        profileId,
        context: job.context,
      },
      preflightLimits(services.config),
    );
    const reportPath = join(workDir, 'preflight-report.json');
    await writeFile(reportPath, JSON.stringify(report));
    const { errors, warnings } = report.summary;
    const detail = `: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    const name = sourceFileName(task);
    const proofs = fileType === 'pdf' ? await proofOutputs(report, inputPath, workDir, (label) => derivedFileName(name, `${step.type}-${label}`, 'jpg')) : { outputs: [], note: '' };
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

export function handler(event: StepInvocation): Promise<StepRunSummary> {
  return runStep(event, preflightWorker);
}
