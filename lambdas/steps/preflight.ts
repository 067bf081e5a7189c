/**
 * Preflight worker (state `Preflight`, for `preflight` and `repreflight` steps):
 * checks the task's current file against a profile. A repreflight without its own
 * profileId uses the profile of the preflight before it, so "fixed" is judged by
 * the same rules as "broken" (step-params.ts). The engine runs in its own
 * thread with a time budget and a heap limit (engine/guard/preflight-guarded.ts).
 */
import '../platform/polyfills';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { preflightGuarded, preflightLimits } from '../engine/guard/preflight-guarded';
import { runStep, type StepInvocation, type StepRunSummary, type StepWorker } from './step-runner';
import { resolveProfileId } from './step-params';
import { derivedFileName } from '../domain/file-names';
import { sourceFileName } from './task-graph';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

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
            fileName: derivedFileName(sourceFileName(task), `${step.type}-report`, 'json'),
          },
        },
      ],
      summary: `The ${step.type} step finished with outcome ${outcome} (profile ${profileId}${detail}).`,
    };
  },
};

export function handler(event: StepInvocation): Promise<StepRunSummary> {
  return runStep(event, preflightWorker);
}
