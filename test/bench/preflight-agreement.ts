/**
 * `npm run bench:preflight-agreement` — our preflight against poppler-utils
 * over the real-world corpus, against its quality bars:
 *   1. fonts: embedded yes/no agrees with `pdffonts` for the same font object
 *      (target ≥ 99 % of poppler's rows);
 *   2. images: x and y effective resolution within 1 % of `pdfimages -list`
 *      for the same page and object (target ≥ 98 % of comparable rows);
 *   3. robustness: every file ends with a report or an error with a reason,
 *      within the per-file budget; crashes, slowest files, peak RSS.
 * Our side is the guarded preflight (worker thread, time budget, heap limit),
 * `default` profile, two files at a time. What counts as comparable and how
 * rows are matched: support/image-agreement.ts, font-agreement.ts,
 * agreement-summary.ts.
 *
 * Options: --corpus DIR (../shared/corpus/realworld/pdfjs from the repository),
 * --timeout-seconds S (60, per file, ours), --tool-timeout-seconds S (60, per
 * poppler tool), --concurrency N (2), --limit N (first N files),
 * --disagreements N (list up to N disagreeing rows of each kind),
 * --verbose (list all of them, and our placements poppler does not list).
 */
import '../../lambdas/platform/polyfills';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { endWarmEngineThreads } from '../../lambdas/engine/guard/engine-thread';
import { preflightGuarded } from '../../lambdas/engine/guard/preflight-guarded';
import { summariseAgreement } from './support/agreement-summary';
import { forEachConcurrently } from './support/concurrency';
import { runOurs, runPoppler, type FileRun } from './support/corpus-file-run';
import { PPI_TOLERANCE } from './support/image-agreement';
import { peakRssMb } from './support/peak-rss';
import { summariseRobustness } from './support/robustness-summary';
import { toolsAvailable } from './support/run-tool';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    'timeout-seconds': { type: 'string', default: '60' },
    'tool-timeout-seconds': { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '2' },
    limit: { type: 'string' },
    disagreements: { type: 'string', default: '0' },
    verbose: { type: 'boolean', default: false },
  },
});
const root = path.resolve(import.meta.dirname, '../..');
const corpus = path.resolve(values.corpus ?? path.join(root, '../shared/corpus/realworld/pdfjs'));
const budgetMs = Number(values['timeout-seconds']) * 1000;
const toolTimeoutMs = Number(values['tool-timeout-seconds']) * 1000;
const listLimit = values.verbose ? Infinity : Number(values.disagreements);

if (!existsSync(corpus)) {
  console.log(`Preflight agreement: skipped — no corpus at ${corpus} (pass --corpus DIR).`);
  process.exit(0);
}
const withPoppler = toolsAvailable('pdffonts', 'pdfimages');
const files = readdirSync(corpus)
  .filter((f) => f.toLowerCase().endsWith('.pdf'))
  .sort()
  .slice(0, values.limit ? Number(values.limit) : undefined);

console.log(`Preflight agreement and robustness over ${files.length} files in ${path.relative(process.cwd(), corpus) || corpus}`);
if (withPoppler) console.log(`compared with ${popplerVersion()}; our side: guarded preflight, default profile, ${values.concurrency} files at a time`);
else console.log('poppler comparison skipped: pdffonts/pdfimages not found (apt-get install poppler-utils); robustness only');

const runs: FileRun[] = [];
const t0 = performance.now();
try {
  await warmUpEngineThreads(Number(values.concurrency));
  await forEachConcurrently(files, Number(values.concurrency), async (file, i) => {
    const full = path.join(corpus, file);
    const ours = await runOurs(preflightGuarded, full, budgetMs);
    const poppler = withPoppler ? await runPoppler(full, toolTimeoutMs) : ({ status: 'skipped' } as const);
    runs.push({ file, ours, poppler });
    if ((i + 1) % 100 === 0) process.stderr.write(`  ${i + 1}/${files.length} files…\n`);
  });
} finally {
  await endWarmEngineThreads();
}
const wallSeconds = (performance.now() - t0) / 1000;
runs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(2)} %`);
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const fmtPpi = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(3) : n.toFixed(1)) : String(n));

if (withPoppler) {
  const s = summariseAgreement(runs);
  console.log('');
  if (s.missingField) {
    console.log(`agreement not computed: the report does not carry ${s.missingField}, which matching needs`);
  } else {
    const f = s.fonts;
    const i = s.images;
    console.log(`fonts  (embedded yes/no vs pdffonts):        N ${f.rows}, agreeing ${f.agreeing}, ${pct(f.agreeing, f.rows)} (target ≥ 99 %)`);
    console.log(`       disagreeing: ${f.differing} say otherwise, ${f.missing} not listed by us`);
    console.log(`images (x and y ppi within ${PPI_TOLERANCE * 100} % of pdfimages): N ${i.rows}, within ${i.within}, ${pct(i.within, i.rows)} (target ≥ 98 %)`);
    console.log(`       disagreeing: ${i.outside} outside 1 %, ${i.missing} not listed by us`);
    console.log(`       not comparable: ${i.maskRows} smask/mask rows (the mask travelling with an image), ${i.degenerate} rows poppler prints as inf`);
    console.log(`       our placements poppler does not list (not counted): ${s.oursOnly.length}`);
    if (s.refusedByUs.length) {
      console.log(`       ${s.refusedByUs.length} files poppler reads and we refused or crashed on count as not listed by us`);
    }
    if (s.truncatedImageLists.length) {
      console.log(`       ${s.truncatedImageLists.length} files left out of the image figure: the report's image list is capped (${s.truncatedImageLists.slice(0, 5).join(', ')}${s.truncatedImageLists.length > 5 ? ', …' : ''})`);
    }
  }
  console.log(`files compared: ${s.compared}; excluded because poppler failed: ${s.popplerFailed.filter((r) => r.poppler.status === 'failed').length}, timed out: ${s.popplerFailed.filter((r) => r.poppler.status === 'timeout').length}`);

  if (listLimit > 0 && !s.missingField) {
    const fontMisses = s.fontRows.filter((c) => c.verdict !== 'agrees');
    if (fontMisses.length) console.log(`\nfont disagreements (${Math.min(listLimit, fontMisses.length)} of ${fontMisses.length}): file, object, font — poppler vs ours`);
    for (const c of fontMisses.slice(0, listLimit)) {
      const p = c.poppler;
      const obj = p.objectNumber === null ? 'direct' : `obj ${p.objectNumber}`;
      const ours = c.ours ? `embedded ${c.ours.embedded ? 'yes' : 'no'}` : 'not listed';
      console.log(`  ${c.file}  ${obj}  ${p.name ?? '[none]'} (${p.type}) — poppler embedded ${p.embedded ? 'yes' : 'no'}, ours ${ours}`);
    }
    const imageMisses = s.imageRows.filter((c) => c.verdict === 'outside' || c.verdict === 'missing');
    if (imageMisses.length) console.log(`\nimage disagreements (${Math.min(listLimit, imageMisses.length)} of ${imageMisses.length}): file, page, object, pixels — poppler vs ours (x × y ppi)`);
    for (const c of imageMisses.slice(0, listLimit)) {
      const p = c.poppler;
      const obj = p.inline ? 'inline' : p.objectNumber === null ? '[none]' : `obj ${p.objectNumber}`;
      const ours = c.ours ? `${fmtPpi(c.ours.ppiX)} × ${fmtPpi(c.ours.ppiY)}` : 'not listed';
      console.log(`  ${c.file}  p.${p.page}  ${obj}  ${p.type} ${p.width}×${p.height} — poppler ${fmtPpi(p.xPpi)} × ${fmtPpi(p.yPpi)}, ours ${ours}`);
    }
    if (values.verbose && s.oursOnly.length) {
      console.log(`\nour placements poppler does not list (${s.oursOnly.length}):`);
      for (const img of s.oursOnly) {
        console.log(`  ${img.file}  p.${img.page}  ${img.inline ? 'inline' : `obj ${img.objectNumber}`}  ${img.width}×${img.height} — ours ${fmtPpi(img.ppiX)} × ${fmtPpi(img.ppiY)}`);
      }
    }
    if (values.verbose) for (const r of s.popplerFailed) console.log(`  poppler ${r.poppler.status}: ${r.file}`);
  }
}

const rob = summariseRobustness(runs, budgetMs);
console.log('');
console.log(`robustness: ${rob.files} files → ${rob.reports} reports, ${rob.errors} errors with a reason, ${rob.crashes} crashes, ${rob.overBudget} at or over the ${budgetMs / 1000} s budget`);
for (const { reason, count } of rob.topReasons) console.log(`  ${String(count).padStart(4)} × ${reason}`);
for (const c of rob.crashed) console.log(`  crash: ${c.file}: ${c.error}`);
console.log(`slowest (ours): ${rob.slowest.map((s) => `${s.file} ${ms(s.ms)}${s.status === 'report' ? '' : ` (${s.status})`}`).join(', ')}`);
const rss = peakRssMb();
console.log(`peak RSS of the bench process (engine threads included): ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`}; wall time ${wallSeconds.toFixed(1)} s`);

/**
 * The first call in each engine thread loads the whole engine (a couple of
 * seconds under tsx); one call per lane on a one-page PDF first keeps that out
 * of the first files' times.
 */
async function warmUpEngineThreads(lanes: number): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proofline-agreement-'));
  try {
    const doc = await PDFDocument.create();
    doc.addPage();
    const file = path.join(dir, 'warm-up.pdf');
    await writeFile(file, await doc.save());
    await Promise.all(Array.from({ length: lanes }, () => runOurs(preflightGuarded, file, budgetMs)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function popplerVersion(): string {
  const r = spawnSync('pdffonts', ['-v'], { encoding: 'utf8' });
  const m = /version\s+(\S+)/.exec(`${r.stdout}${r.stderr}`);
  return m ? `poppler-utils ${m[1]}` : 'poppler-utils';
}
