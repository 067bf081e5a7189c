/**
 * `npm run bench:optimize` — the optimize step on the real-world corpus
 * (../shared/corpus/realworld/pdfjs), beside qpdf and Ghostscript:
 *
 * - ours (optimizePdf, default parameters: print preset), each file in a
 *   child process with a time limit (support/bench-child.ts): the median size
 *   reduction (a file kept as it was counts 0), the share of files made
 *   smaller, and the files damaged — the first page rendering differently
 *   after optimizing (`pdftoppm -r 72 -f 1 -l 1`, RMSE > 0.01 on a 0–1 scale;
 *   `mutool draw` for the files pdftoppm renders differently from run to run,
 *   support/optimize-render-compare.ts) or `qpdf --check` worse than for the
 *   original. That count must be 0 (TARGET line); they are listed;
 * - `qpdf --object-streams=generate --recompress-flate --compression-level=9`
 *   (lossless restructuring: its median reduction);
 * - Ghostscript `-sDEVICE=pdfwrite -dPDFSETTINGS=/printer` (a full rewrite that
 *   downsamples to 300 ppi): its median reduction and how many files it
 *   renders differently by the same measure.
 * Each side's output is what it writes, even when larger (ours keeps the
 * original then, so it never is).
 *
 * Without the corpus the bench is skipped with a message; without pdftoppm
 * the rendering comparison is, without qpdf or gs their parts are.
 *
 * Options: --limit N (first N files, sorted by name), --only A.pdf,B.pdf
 * (just these files of the corpus), --timeout S (per file
 * and tool, default 120), --concurrency N (2), --list N (list up to N files
 * per finding, default 20).
 */
import '../../lambdas/platform/polyfills';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BenchChild } from './support/bench-child';
import { forEachConcurrently } from './support/concurrency';
import type { OptimizeAnswer, OptimizeJob } from './support/optimize-child';
import { RMSE_LIMIT, summariseSide, type SideOutcome } from './support/optimize-summary';
import { qpdfWorse, runQpdfCheck, type QpdfCheck } from './support/qpdf-check';
import { FirstPageJudge } from './support/optimize-render-compare';
import { runTool, toolsAvailable } from './support/run-tool';

const { values } = parseArgs({
  options: {
    limit: { type: 'string' },
    only: { type: 'string' },
    timeout: { type: 'string', default: '120' },
    concurrency: { type: 'string', default: '2' },
    list: { type: 'string', default: '20' },
  },
});
const limit = values.limit === undefined ? Infinity : Number(values.limit);
const only = values.only === undefined ? null : new Set(values.only.split(','));
const timeoutMs = Number(values.timeout) * 1000;
const concurrency = Math.max(1, Number(values.concurrency));
const listLimit = Number(values.list);

const root = path.resolve(import.meta.dirname, '../..');
const corpus = path.join(root, '../shared/corpus/realworld/pdfjs');
const CHILD = path.join(import.meta.dirname, 'support/optimize-child.ts');
const withQpdf = toolsAvailable('qpdf');
const withGs = toolsAvailable('gs');
const judge = new FirstPageJudge(timeoutMs);
const withPdftoppm = judge.withPdftoppm;
const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(1)} %`);

async function qpdfCheck(file: string): Promise<QpdfCheck> {
  return withQpdf ? runQpdfCheck(file, timeoutMs) : { status: null, issues: 0 };
}

async function main(): Promise<void> {
  if (!existsSync(corpus)) {
    console.log('bench:optimize skipped — no corpus at ../shared/corpus/realworld/pdfjs.');
    return;
  }
  const files = readdirSync(corpus).filter((f) => f.toLowerCase().endsWith('.pdf') && (!only || only.has(f))).sort().slice(0, limit);
  console.log(`bench:optimize: ${files.length} files of realworld/pdfjs, ${concurrency} at a time.`);
  if (!withPdftoppm) console.log('  pdftoppm not found (apt-get install poppler-utils): the rendering comparison is skipped.');
  if (!withQpdf) console.log('  qpdf not found (apt-get install qpdf): its check and its side are skipped.');
  if (!withGs) console.log('  gs not found (apt-get install ghostscript): its side is skipped.');

  const dir = await mkdtemp(path.join(tmpdir(), 'proofline-bench-optimize-'));
  const children = Array.from({ length: concurrency }, () => new BenchChild<OptimizeJob, OptimizeAnswer>(CHILD));
  const free = [...children];
  const ours: SideOutcome[] = [];
  const qpdf: SideOutcome[] = [];
  const gs: SideOutcome[] = [];
  const t0 = performance.now();
  let oursMs = 0;
  try {
    await forEachConcurrently(files, concurrency, async (name, i) => {
      const file = path.join(corpus, name);
      const sizeBefore = statSync(file).size;
      const base = path.join(dir, `f${i}`);
      const original = await judge.original(file, base);
      const child = free.pop()!;
      let a: OptimizeAnswer;
      try {
        a = await child.run({ path: file, outPath: `${base}-ours.pdf` }, timeoutMs);
      } finally {
        free.push(child);
      }
      oursMs += a.ms;
      if (!a.ok) ours.push({ file: name, sizeBefore, sizeAfter: a.name === 'UnprocessableFileError' ? sizeBefore : null, rmse: null, failure: `${a.name}: ${a.message}` });
      else if (!a.changed) ours.push({ file: name, sizeBefore, sizeAfter: sizeBefore, rmse: null });
      else {
        const [render, before, after] = await Promise.all([judge.compare(file, original, `${base}-ours.pdf`, `${base}-ours`), qpdfCheck(file), qpdfCheck(`${base}-ours.pdf`)]);
        ours.push({ file: name, sizeBefore, sizeAfter: a.sizeBytes, ...render, qpdfWorse: qpdfWorse(before, after) });
      }
      if (withQpdf) {
        const out = `${base}-qpdf.pdf`;
        const run = await runTool('qpdf', ['--object-streams=generate', '--recompress-flate', '--compression-level=9', file, out], timeoutMs);
        // Exit 3: written, with warnings.
        qpdf.push(existsSync(out) && run.outcome !== 'timeout' ? { file: name, sizeBefore, sizeAfter: statSync(out).size, rmse: null } : { file: name, sizeBefore, sizeAfter: null, rmse: null, failure: run.outcome });
      }
      if (withGs) {
        const out = `${base}-gs.pdf`;
        const run = await runTool('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/printer', `-sOutputFile=${out}`, file], timeoutMs);
        if (run.outcome === 'ok' && existsSync(out) && statSync(out).size > 0) gs.push({ file: name, sizeBefore, sizeAfter: statSync(out).size, ...(await judge.compare(file, original, out, `${base}-gs`)) });
        else gs.push({ file: name, sizeBefore, sizeAfter: null, rmse: null, failure: run.outcome });
      }
      // This file's outputs and page images go; the directory stays for the other lanes.
      for (const f of readdirSync(dir).filter((f) => f.startsWith(`f${i}-`))) await rm(path.join(dir, f), { force: true });
    });
  } finally {
    for (const c of children) c.close();
    await rm(dir, { recursive: true, force: true });
  }

  const s = summariseSide(ours);
  console.log(`\nOurs (${((performance.now() - t0) / 1000).toFixed(0)} s in all, ${(oursMs / 1000).toFixed(0)} s optimizing): ${s.files} files, ${s.failed} failed (crash or timeout).`);
  for (const f of ours.filter((o) => o.failure).slice(0, listLimit)) console.log(`    ${f.file}: ${f.failure}`);
  console.log(`  Median size reduction: ${pct(s.medianReduction)}; over all bytes: ${pct(s.totalReduction)}.`);
  console.log(`  Made smaller: ${s.smaller}/${s.files - s.failed} = ${pct(s.smaller / (s.files - s.failed))}.`);
  const damaged = [...new Set([...s.renderedDifferently.map((d) => d.file), ...s.qpdfWorse])];
  console.log(`  Damaged (first page RMSE > ${RMSE_LIMIT}, or qpdf --check worse): ${damaged.length}${withPdftoppm && withQpdf ? '' : ' (not all checks ran)'}.`);
  for (const d of s.renderedDifferently.slice(0, listLimit)) console.log(`    renders differently: ${d.file} (RMSE ${d.rmse === null ? 'page lost' : d.rmse.toFixed(4)})`);
  for (const f of s.qpdfWorse.slice(0, listLimit)) console.log(`    qpdf --check worse: ${f}`);
  reportUnstable(s);
  console.log(`TARGET damaged files = 0 — ${damaged.length === 0 && withPdftoppm && withQpdf ? 'met' : 'NOT MET'}`);

  if (withQpdf) {
    const q = summariseSide(qpdf);
    console.log(`\nqpdf --object-streams=generate --recompress-flate --compression-level=9: median reduction ${pct(q.medianReduction)}, over all bytes ${pct(q.totalReduction)}, smaller ${q.smaller}/${q.files - q.failed}, ${q.failed} failed.`);
  }
  if (withGs) {
    const g = summariseSide(gs);
    console.log(`gs -sDEVICE=pdfwrite -dPDFSETTINGS=/printer: median reduction ${pct(g.medianReduction)}, over all bytes ${pct(g.totalReduction)}, smaller ${g.smaller}/${g.files - g.failed}, ${g.failed} failed; renders the first page differently: ${g.renderedDifferently.length}.`);
    for (const d of g.renderedDifferently.slice(0, Math.min(listLimit, 10))) console.log(`    gs renders differently: ${d.file} (RMSE ${d.rmse === null ? 'page lost' : d.rmse.toFixed(4)})`);
  }
}

/** The files pdftoppm could not judge because it renders their original differently from run to run. */
function reportUnstable(s: ReturnType<typeof summariseSide>): void {
  if (s.judgedByMutool.length) console.log(`  Judged by mutool draw, as pdftoppm renders the original differently on each run: ${s.judgedByMutool.join(', ')}.`);
  if (s.unstable.length) console.log(`  pdftoppm renders the original differently on each run and no stable renderer could judge (its verdict stands): ${s.unstable.join(', ')}.`);
}

await main();
