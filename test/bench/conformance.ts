/**
 * `npm run bench:conformance` — the validation engine against the conformance
 * corpus, against its quality bars. Every file of
 * ../shared/corpus/conformance/manifest.json is validated, in this process on
 * one core, against the manifest's profile; per profile it prints the files,
 * agreement with the expected pass/fail and, for expected-fail files, the share
 * where one of our failures names the manifest's clause (or a sub-clause of it).
 * Then total time and files per second.
 * Targets: ≥ 97 % agreement on 1b, 2b, 2u, 3b, 4 and ua1, ≥ 90 % on the others,
 * ≥ 90 % right clause, the whole corpus in under 60 s.
 *
 * Then, each in a process of its own, a generated 1,000-page file
 * (validate-large.ts: time and peak RSS) and the real-world corpus
 * (validate-realworld.ts: every file a verdict or a reason, no crashes).
 *
 * Options: --corpus DIR (../shared/corpus/conformance), --profile CODE (only
 * that profile), --filter TEXT (only files whose path contains it), --list
 * (print each disagreement with our failures), --json FILE (every file's result).
 * With --profile, --filter or --corpus the last two parts are left out.
 */
import '../../lambdas/platform/polyfills';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ValidateProfileCode } from '../../step-definitions/catalogue';
import { validate } from '../../lambdas/engine/validate';
import { summariseConformance, type ConformanceRun, type ManifestEntry } from './support/conformance-summary';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    profile: { type: 'string' },
    filter: { type: 'string' },
    list: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const root = path.resolve(import.meta.dirname, '../..');
const corpus = path.resolve(values.corpus ?? path.join(root, '../shared/corpus/conformance'));
const manifestPath = path.join(corpus, 'manifest.json');
if (!existsSync(manifestPath)) {
  console.log(`Conformance benchmark: skipped — no manifest at ${manifestPath} (pass --corpus DIR).`);
  process.exit(0);
}

const manifest = (JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[]).filter(
  (e) => (!values.profile || e.profile === values.profile) && (!values.filter || e.file.includes(values.filter)),
);
// Silence pdf-lib's parse warnings: they are about the corpus, not the run.
console.warn = () => {};

const runs: ConformanceRun[] = [];
const started = performance.now();
for (const entry of manifest) {
  const t0 = performance.now();
  try {
    const result = await validate({ path: path.join(corpus, entry.file), profiles: [entry.profile as ValidateProfileCode] });
    const profile = result.profiles[0]!;
    runs.push({ entry, ms: performance.now() - t0, compliant: profile.compliant, failures: profile.failures.map((f) => ({ ruleId: f.ruleId, clause: f.clause, occurrences: f.occurrences, context: f.examples[0]?.context as string | undefined })) });
  } catch (err) {
    runs.push({ entry, ms: performance.now() - t0, error: err instanceof Error ? err.message : String(err) });
  }
}
const seconds = (performance.now() - started) / 1000;

console.log(summariseConformance(runs, { list: values.list }));
console.log(`\n${runs.length} files in ${seconds.toFixed(1)} s (${(runs.length / seconds).toFixed(1)} files/s, one core); slowest ${[...runs].sort((a, b) => b.ms - a.ms)[0]?.ms.toFixed(0) ?? 0} ms.`);
if (values.json) writeFileSync(values.json, JSON.stringify(runs, null, 1));
if (!values.profile && !values.filter && !values.corpus) {
  for (const part of ['validate-large.ts', 'validate-realworld.ts']) {
    spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, part)], { stdio: 'inherit', cwd: root });
  }
}
