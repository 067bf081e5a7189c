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

const corpus = path.resolve(import.meta.dirname, '../../../shared/corpus/realworld/pdfjs');
if (!existsSync(corpus)) {
  console.log(`\nReal-world robustness: skipped — no corpus at ${corpus}.`);
  process.exit(0);
}
console.warn = () => {};
const files = readdirSync(corpus).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();

interface Run {
  file: string;
  ms: number;
  error?: { name: string; message: string };
  unevaluated: string[];
}
const runs: Run[] = [];
const started = Date.now();
await forEachConcurrently(files, 2, async (file) => {
  const t0 = Date.now();
  try {
    const r = await validateGuarded({ path: path.join(corpus, file), profiles: ['2b', 'ua1'] }, { timeoutMs: 60_000 });
    const unevaluated = r.profiles.flatMap((p) => p.failures.filter((f) => JSON.stringify(f.examples).includes('could not be evaluated')).map((f) => f.ruleId));
    runs.push({ file, ms: Date.now() - t0, unevaluated });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    runs.push({ file, ms: Date.now() - t0, error: { name: e.name, message: e.message }, unevaluated: [] });
  }
});
await endWarmEngineThreads();

const refused = runs.filter((r) => r.error?.name === 'UnprocessableFileError');
const crashes = runs.filter((r) => r.error && r.error.name !== 'UnprocessableFileError');
const reasons = new Map<string, number>();
for (const r of refused) {
  const key = r.error!.message.split(':')[0]!.slice(0, 70);
  reasons.set(key, (reasons.get(key) ?? 0) + 1);
}
console.log(`\nReal-world robustness (${runs.length} files, guarded validation against 2b + ua1, 2 at a time): ${runs.length - refused.length - crashes.length} verdicts, ${refused.length} refused with a reason, ${crashes.length} crashes; ${runs.filter((r) => r.unevaluated.length).length} files where a rule could not be evaluated; wall ${((Date.now() - started) / 1000).toFixed(0)} s, peak RSS ${peakRssMb()?.toFixed(0) ?? '?'} MB.`);
for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)} × ${reason}`);
console.log(`  slowest: ${[...runs].sort((a, b) => b.ms - a.ms).slice(0, 5).map((r) => `${r.file} ${(r.ms / 1000).toFixed(1)} s`).join(', ')}`);
for (const r of crashes) console.log(`  CRASH ${r.file}: ${r.error!.name}: ${r.error!.message}`);
for (const r of runs.filter((x) => x.unevaluated.length)) console.log(`  NOT EVALUATED ${r.file}: ${r.unevaluated.join(', ')}`);
