/**
 * Third part of `npm run bench:conformance`: robustness of validation on the
 * real-world corpus (../shared/corpus/realworld/pdfjs, 966 often malformed
 * PDFs). Each file goes through the guarded validation the validate step uses
 * (engine thread, 60 s budget, heap limit), against PDF/A-2b and PDF/UA-1, two
 * at a time. Every file must end in a verdict or an UnprocessableFileError with
 * a sentence: anything else is a crash and is listed, as is any rule that
 * threw on a file's structure (reported as "could not be evaluated"). Prints
 * verdicts, errors by reason, crashes, slowest files and wall time.
 */
import '../../lambdas/platform/polyfills';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { endWarmEngineThreads } from '../../lambdas/engine/guard/engine-thread';
import { validateGuarded } from '../../lambdas/engine/guard/validate-guarded';
import { forEachConcurrently } from './support/concurrency';
import { peakRssMb } from './support/peak-rss';
import { summariseRobustness, type RobustnessRun } from './support/robustness-summary';

const corpus = path.resolve(import.meta.dirname, '../../../shared/corpus/realworld/pdfjs');
if (!existsSync(corpus)) {
  console.log(`\nReal-world robustness: skipped — no corpus at ${corpus}.`);
  process.exit(0);
}
console.warn = () => {};
const files = readdirSync(corpus).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();

const BUDGET_MS = 60_000;
/** Rules that threw on a file's structure (reported as "could not be evaluated"), per file. */
const unevaluated = new Map<string, string[]>();
const runs: RobustnessRun[] = [];
const started = Date.now();
await forEachConcurrently(files, 2, async (file) => {
  const t0 = Date.now();
  try {
    const r = await validateGuarded({ path: path.join(corpus, file), profiles: ['2b', 'ua1'] }, { timeoutMs: BUDGET_MS });
    const thrown = r.profiles.flatMap((p) => p.failures.filter((f) => JSON.stringify(f.examples).includes('could not be evaluated')).map((f) => f.ruleId));
    if (thrown.length) unevaluated.set(file, thrown);
    runs.push({ file, ours: { status: 'report', ms: Date.now() - t0 } });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const ms = Date.now() - t0;
    runs.push({ file, ours: e.name === 'UnprocessableFileError' ? { status: 'error', ms, reason: e.message } : { status: 'crash', ms, error: `${e.name}: ${e.message}` } });
  }
});
await endWarmEngineThreads();

const summary = summariseRobustness(runs, BUDGET_MS, 5);
console.log(`\nReal-world robustness (${summary.files} files, guarded validation against 2b + ua1, 2 at a time): ${summary.reports} verdicts, ${summary.errors} refused with a reason, ${summary.crashes} crashes, ${summary.overBudget} at the ${BUDGET_MS / 1000} s budget; ${unevaluated.size} files where a rule could not be evaluated; wall ${((Date.now() - started) / 1000).toFixed(0)} s, peak RSS ${peakRssMb()?.toFixed(0) ?? '?'} MB.`);
for (const { reason, count } of summary.topReasons) console.log(`  ${String(count).padStart(3)} × ${reason.slice(0, 90)}`);
console.log(`  slowest: ${summary.slowest.map((r) => `${r.file} ${(r.ms / 1000).toFixed(1)} s`).join(', ')}`);
for (const c of summary.crashed) console.log(`  CRASH ${c.file}: ${c.error}`);
for (const [file, ids] of unevaluated) console.log(`  NOT EVALUATED ${file}: ${ids.join(', ')}`);
