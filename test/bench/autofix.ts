/**
 * `npm run bench:autofix` — the autofix quality bars, as figures:
 *
 * 1. Fixes (real-world corpus, ../shared/corpus/realworld/pdfjs, and the
 *    conformance corpus's expected-fail files): preflight (default profile),
 *    autofix with what the report recommends (autofix checks its own result and
 *    goes on in rounds), preflight again. The share of findings marked fixable
 *    that are gone (target ≥ 98 %), the fixable findings that appear only after
 *    the fix (target ≤ 2 % of those gone), findings whose fix said there was
 *    nothing to change (check and fix disagree), and the files the
 *    fix damaged (target 0): qpdf --check worse than the original, extractable
 *    text lost, or — for fixes that must not change appearance — printing
 *    differently inside the TrimBox; a crash or timeout of autofix counts too.
 * 2. PDF/A (conformance corpus, expected-fail PDF/A files): validate, apply
 *    pdfa.prepare for the file's part and level, validate again. The share of
 *    metadata and structure failures gone, and of the files whose only
 *    failures were such, the share now compliant.
 *
 * Each file runs in a child process with a time limit (support/bench-child.ts).
 * Without the corpora the parts are skipped with a message; without qpdf the
 * qpdf comparison is, and the damage figure says so.
 *
 * Options: --part fix|pdfa, --limit N (first N files of each corpus),
 * --only TEXT (just the files whose path under ../shared/corpus, as listed,
 * contains TEXT; repeat it or separate by commas for several — to re-measure
 * single files; --limit then counts among those),
 * --rounds N (autofix's most rounds, default the engine's: 1 measures one
 * round of the first preflight's recommendations alone), --timeout S (per file, default 300: the child renders every page twice for
 * the appearance comparison, each page within the production limit of 120 s,
 * besides autofix and two preflights), --concurrency N (2), --list N (list up
 * to N damaged files and remaining findings, default 10).
 */
import '../../lambdas/platform/polyfills';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ValidateProfileCode } from '../../step-definitions/catalogue';
import { BenchChild } from './support/bench-child';
import type { AutofixAnswer, AutofixJob } from './support/autofix-child';
import { summariseFixes, summarisePdfa, type FixFileOutcome, type PdfaFileOutcome, type QpdfCheck } from './support/autofix-summary';
import { forEachConcurrently } from './support/concurrency';
import { peakRssMb } from './support/peak-rss';
import { runQpdfCheck } from './support/qpdf-check';
import { toolsAvailable } from './support/run-tool';

const { values } = parseArgs({
  options: {
    part: { type: 'string' },
    limit: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string', multiple: true },
    timeout: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '2' },
    list: { type: 'string', default: '10' },
  },
});
if (values.part !== undefined && values.part !== 'fix' && values.part !== 'pdfa') throw new Error(`--part is fix or pdfa, not ${values.part}`);
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const maxRounds = values.rounds === undefined ? undefined : Number(values.rounds);
const timeoutMs = Number(values.timeout) * 1000;
const concurrency = Math.max(1, Number(values.concurrency));
const listLimit = Number(values.list);
const only = (values.only ?? []).flatMap((o) => o.split(',')).map((o) => o.trim()).filter((o) => o !== '');

const root = path.resolve(import.meta.dirname, '../..');
const corpus = path.join(root, '../shared/corpus');
const realworld = path.join(corpus, 'realworld/pdfjs');
const conformance = path.join(corpus, 'conformance');
const CHILD = path.join(import.meta.dirname, 'support/autofix-child.ts');
const withQpdf = toolsAvailable('qpdf');
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);
const target = (label: string, met: boolean) => console.log(`TARGET ${label} — ${met ? 'met' : 'NOT MET'}`);

interface ManifestEntry {
  file: string;
  profile: string;
  expect: 'pass' | 'fail';
}
const manifest: ManifestEntry[] = existsSync(path.join(conformance, 'manifest.json')) ? JSON.parse(readFileSync(path.join(conformance, 'manifest.json'), 'utf8')) : [];
const expectedFail = manifest.filter((e) => e.expect === 'fail');
/** --only: the file's path relative to ../shared/corpus (as the bench lists it) contains one of the given texts. */
const chosen = (corpusPath: string) => only.length === 0 || only.some((o) => corpusPath.includes(o));

async function qpdfCheck(file: string): Promise<QpdfCheck> {
  return withQpdf ? runQpdfCheck(file, 60_000) : { status: null, issues: 0 };
}

async function withChildren<T>(items: T[], work: (child: BenchChild<AutofixJob, AutofixAnswer>, item: T, dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proofline-bench-autofix-'));
  const children = Array.from({ length: concurrency }, () => new BenchChild<AutofixJob, AutofixAnswer>(CHILD));
  const free = [...children];
  try {
    await forEachConcurrently(items, concurrency, async (item) => {
      const child = free.pop()!;
      try {
        await work(child, item, dir);
      } finally {
        free.push(child);
      }
    });
  } finally {
    for (const c of children) c.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function fixPart(): Promise<void> {
  const realworldFiles = existsSync(realworld) ? readdirSync(realworld).filter((f) => f.toLowerCase().endsWith('.pdf')).sort().map((f) => path.join(realworld, f)) : [];
  const files = [
    ...realworldFiles.filter((f) => chosen(path.relative(corpus, f))).slice(0, limit),
    ...expectedFail.map((e) => path.join(conformance, e.file)).filter((f) => chosen(path.relative(corpus, f))).slice(0, limit),
  ];
  if (files.length === 0) {
    console.log(only.length > 0 ? `Fixes: skipped — no corpus file matches --only ${only.join(',')}.` : 'Fixes: skipped — no corpus under ../shared/corpus.');
    return;
  }
  console.log(`\nFixes: ${files.length} files (real-world and expected-fail conformance), ${concurrency} at a time, autofix rounds ${maxRounds ?? 'as the engine does'}${withQpdf ? '' : '; qpdf not found (apt-get install qpdf): the qpdf comparison is skipped'}.`);
  if (only.length > 0) for (const f of files.slice(0, listLimit)) console.log(`    --only: ${path.relative(corpus, f)}`);
  const outcomes: FixFileOutcome[] = [];
  const t0 = performance.now();
  let n = 0;
  await withChildren(files, async (child, file, dir) => {
    const outPath = path.join(dir, `fixed-${n++}.pdf`);
    const name = path.relative(corpus, file);
    const a = await child.run({ kind: 'fix', path: file, outPath, maxRounds }, timeoutMs);
    if (!a.ok) {
      const status = a.name === 'timeout' || a.name === 'crash' ? a.name : a.name === 'UnprocessableFileError' ? 'refused' : 'crash';
      outcomes.push({ file: name, status, detail: a.message });
      return;
    }
    if (a.kind !== 'fix') throw new Error('unexpected answer');
    const qpdf = a.changed ? { before: await qpdfCheck(file), after: await qpdfCheck(outPath) } : null;
    outcomes.push({ file: name, status: 'done', before: a.before, after: a.after, changed: a.changed, applied: a.applied, skipped: a.skipped, rounds: a.rounds, text: a.text, appearance: a.appearance, layersOnly: a.layersOnly, qpdf });
    await rm(outPath, { force: true });
  });
  const s = summariseFixes(outcomes);
  console.log(`  ${s.files} files in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${s.changed} changed, ${s.refused} refused with a reason, ${s.crashes} crashes, ${s.timeouts} timeouts.`);
  console.log(`  Fixes applied (files): ${s.applied.map((a) => `${a.fixId} ${a.files}`).join(', ') || 'none'}.`);
  console.log(`  Fixable findings gone after autofix + repreflight: ${s.gone}/${s.fixable} = ${pct(s.gone, s.fixable)}.`);
  for (const r of s.remaining.slice(0, listLimit)) console.log(`    still there: ${r.checkId} ×${r.count} (e.g. ${r.files.slice(0, 3).join(', ')})`);
  console.log(`  Fixable findings that appear only after autofix: ${s.appearedCount} = ${pct(s.appearedCount, s.gone)} of those gone.`);
  for (const r of s.appeared.slice(0, listLimit)) console.log(`    new: ${r.checkId} ×${r.count} (e.g. ${r.files.slice(0, 3).join(', ')})`);
  console.log(`  Findings still there whose fix said there was nothing to change (check and fix disagree): ${s.disagreements.reduce((n, d) => n + d.count, 0)}.`);
  for (const d of s.disagreements.slice(0, listLimit)) console.log(`    ${d.checkId} / ${d.fixId} ×${d.count} (e.g. ${d.files.slice(0, 3).join(', ')})`);
  console.log(`  Changed files by autofix rounds: ${s.rounds.map((n, i) => (i === 0 ? null : `${i}: ${n}`)).filter((x) => x !== null).join(', ') || 'none'}.`);
  console.log(`  Damaged files: ${s.damaged.length}${withQpdf ? '' : ' (qpdf not checked)'}.`);
  for (const d of s.damaged.slice(0, listLimit)) console.log(`    ${d.file}: ${d.why}`);
  target('fixable findings gone ≥ 98 %', s.fixable > 0 && s.gone / s.fixable >= 0.98);
  target('new fixable findings ≤ 2 % of those gone', s.gone > 0 && s.appearedCount / s.gone <= 0.02);
  target('damaged files = 0', s.damaged.length === 0 && withQpdf);
}

async function pdfaPart(): Promise<void> {
  const entries = expectedFail.filter((e) => /^[1-4][abeuf]?$/.test(e.profile) && chosen(path.relative(corpus, path.join(conformance, e.file)))).slice(0, limit);
  if (entries.length === 0) {
    console.log(only.length > 0 ? `PDF/A: skipped — no conformance file matches --only ${only.join(',')}.` : 'PDF/A: skipped — no conformance corpus under ../shared/corpus/conformance.');
    return;
  }
  console.log(`\nPDF/A: ${entries.length} expected-fail PDF/A files through pdfa.prepare.`);
  const outcomes: PdfaFileOutcome[] = [];
  let n = 0;
  await withChildren(entries, async (child, e, dir) => {
    const outPath = path.join(dir, `pdfa-${n++}.pdf`);
    const a = await child.run({ kind: 'pdfa', path: path.join(conformance, e.file), outPath, profile: e.profile as ValidateProfileCode }, timeoutMs);
    if (!a.ok) {
      outcomes.push({ file: e.file, profile: e.profile, status: a.name === 'timeout' ? 'timeout' : a.name === 'UnprocessableFileError' ? 'refused' : 'crash', detail: a.message });
      return;
    }
    if (a.kind !== 'pdfa') throw new Error('unexpected answer');
    outcomes.push({ file: e.file, profile: e.profile, status: a.after === null ? 'skipped' : 'done', detail: a.skipped ?? undefined, before: a.before, after: a.after, compliantAfter: a.compliantAfter });
    await rm(outPath, { force: true });
  });
  const s = summarisePdfa(outcomes);
  const skippedWhy = new Map<string, number>();
  for (const o of outcomes) if (o.status === 'skipped') skippedWhy.set(o.detail ?? '', (skippedWhy.get(o.detail ?? '') ?? 0) + 1);
  console.log(`  ${s.files} files: ${s.files - s.skipped} prepared, ${s.skipped} not in the fix's scope, ${s.failed} could not be fixed (crash, timeout or refused).`);
  for (const [why, count] of [...skippedWhy].sort((a, b) => b[1] - a[1])) console.log(`    not prepared ×${count}: ${why}`);
  if (s.skipped === s.files) return;
  console.log(`  Metadata and structure failures gone after pdfa.prepare: ${s.inScopeGone}/${s.inScopeFailures} = ${pct(s.inScopeGone, s.inScopeFailures)}.`);
  console.log(`  Files whose only failures were metadata and structure, compliant after: ${s.onlyInScopeCompliant}/${s.onlyInScopeFiles} = ${pct(s.onlyInScopeCompliant, s.onlyInScopeFiles)}.`);
  for (const r of s.remaining.slice(0, listLimit)) console.log(`    still failing: ${r.ruleId} ×${r.count}`);
  console.log(`  Files where a rule failed after the fix that passed before: ${s.regressions.length}.`);
  for (const r of s.regressions.slice(0, listLimit)) console.log(`    ${r.file}: ${r.ruleIds.join(', ')}`);
}

const started = performance.now();
if (values.part !== 'pdfa') await fixPart();
if (values.part !== 'fix') await pdfaPart();
console.log(`\nbench:autofix done in ${((performance.now() - started) / 1000).toFixed(0)} s; peak RSS of the bench process ${peakRssMb()?.toFixed(0) ?? '?'} MB (children not included).`);
process.exit(0);
