/**
 * Autofix worker (state `Autofix`): applies fixes to the task's current file.
 * Which fixes: `params.items` when given, else what the latest preceding
 * preflight recommended, else the profile's defaults (the engine decides among
 * these, and without items works in rounds until the file is right:
 * engine/autofix/index.ts). A changed file is stored as the step's `fixed` output and becomes the
 * task's current file, so later steps (repreflight, previews) see the fixed file.
 *
 * Time (step-budget.ts): a fix not done by the step's work deadline ends the
 * step in `error` with a sentence, and the fixed file must be stored by its
 * store deadline. The fixes run in this thread and cannot be stopped from
 * here: past the deadline their result is ignored.
 */
import '../platform/polyfills';
import { basename, join } from 'node:path';
import type { AutofixStepResult } from '../domain/step-results';
import { autofix } from '../engine/autofix';
import { stepHandler, type StepWorker } from './step-runner';
import { withinWorkBudget } from './work-budget';
import { fixItems, fixParamsOf, recommendedFixes, resolveProfile } from './step-params';
import { keyExtension } from '../domain/blob-keys';
import { derivedFileName, extensionForMime } from '../domain/file-names';
import { sourceFileName } from './task-graph';

export const autofixWorker: StepWorker = {
  name: 'autofix',
  async run({ services, graph, job, task, step, inputFile, input, workDir, budget }) {
    const inputPath = await input.local();
    const items = fixItems(step);
    const recommended = await recommendedFixes(services.blobs, graph, step);
    const profile = resolveProfile(graph, step);
    const ext = keyExtension(inputFile.fileName).slice(1) || (extensionForMime(inputFile.mimeType) ?? 'pdf');
    const outPath = join(workDir, `fixed.${ext}`);

    const fix = await withinWorkBudget(
      budget,
      // The rounds stop early rather than run the step out of time.
      autofix({ path: inputPath, outPath, items, recommended, profileId: profile, context: job.context, fixParams: fixParamsOf(step), deadline: Date.now() + budget.workLeftMs() }),
      'Autofix',
    );
    const result: AutofixStepResult = { applied: fix.applied, skipped: fix.skipped, rounds: fix.rounds };
    const fileName = derivedFileName(sourceFileName(task), 'fixed', ext);
    const appliedIds = fix.applied.map((a) => a.fixId).join(', ');
    return {
      outcome: fix.changed ? 'fixed' : 'unchanged',
      result,
      // The engine names the profile it applied (and its version, for an account's own).
      runtimeParams: fix.runtimeParams,
      outputs: fix.changed
        ? [
            {
              path: outPath,
              // The key is ours, never the customer's name (domain/blob-keys.ts).
              keyName: basename(outPath),
              artifact: { kind: 'file', role: 'fixed', mimeType: inputFile.mimeType, fileName },
            },
          ]
        : [],
      summary: fix.changed
        ? `The autofix step changed the file (applied: ${appliedIds}${fix.rounds.length > 1 ? `; in ${fix.rounds.length} rounds, checking the result again after each` : ''}).`
        : `The autofix step found nothing to change${fix.skipped.length > 0 ? ` (${fix.skipped.length} fixes skipped)` : ''}.`,
    };
  },
};

export const handler = stepHandler(autofixWorker);
