/**
 * Validate worker (state `Validate`): checks the current file's conformance with
 * the PDF/A and PDF/UA profiles of `params.profile` (default `auto`: what the
 * file claims). Stores the per-profile result inline and as a
 * `validation-report` artifact the customer can download.
 */
import '../platform/polyfills';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import type { ValidateStepResult } from '../domain/step-results';
import { validateGuarded, validateLimits } from '../engine/guard/validate-guarded';
import { stepHandler, type StepWorker } from './step-runner';
import { engineTimeoutMs, withinWorkBudget } from './work-budget';
import { validateProfiles } from './step-params';
import { derivedFileName } from '../domain/file-names';
import { sourceFileName } from './task-graph';

export const validateWorker: StepWorker = {
  name: 'validate',
  async run({ services, task, step, input, workDir, budget }) {
    const inputPath = await input.local();
    const profiles = validateProfiles(step);
    // An unreadable or password-protected file, or one that exhausts the budget
    // (the configured one, or what is left of the step's, whichever is less)
    // or the heap, ends the task in `error` with a sentence (UnprocessableFileError).
    const limits = validateLimits(services.config);
    const checked = await withinWorkBudget(
      budget,
      validateGuarded({ path: inputPath, profiles }, { ...limits, timeoutMs: engineTimeoutMs(budget, limits.timeoutMs, 'Validation') }),
      'Validation',
    );
    const result: ValidateStepResult = { compliant: checked.compliant, profiles: checked.profiles };
    const reportPath = join(workDir, 'validation-report.json');
    await writeFile(reportPath, JSON.stringify(result));
    const names = checked.profiles.map((p) => p.matched ?? p.requested).join(', ');
    return {
      outcome: checked.outcome,
      result,
      runtimeParams: { profile: profiles },
      outputs: [
        {
          path: reportPath,
          keyName: 'validation-report.json',
          artifact: {
            kind: 'report',
            role: 'validation-report',
            mimeType: 'application/json',
            fileName: derivedFileName(sourceFileName(task), 'validation-report', 'json'),
          },
        },
      ],
      summary: `The validate step finished with outcome ${checked.outcome} (${names}: ${checked.compliant ? 'compliant' : 'not compliant'}).`,
    };
  },
};

export const handler = stepHandler(validateWorker);
