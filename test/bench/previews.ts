/**
 * `npm run bench:previews` — the previews quality bars, as figures:
 *
 * 1. Agreement (support/previews-agreement.ts): page 1 of every real-world PDF
 *    in ../shared/corpus/realworld/pdfjs rendered by us and by `pdftoppm -r 72 -cropbox`;
 *    the share we render without error (target ≥ 99 % of the files that do
 *    not need a password pdftoppm lacks too; the share over all files is
 *    printed beside it) and the RMSE of our image against poppler's (0–1
 *    scale; target: mean ≤ 0.03), median, worst.
 * 2. Speed (support/previews-speed.ts): a generated 50-page PDF at 72 and 150
 *    dpi, our pages per second against two pdftoppm processes on the same
 *    pages (target: ratio ≥ 1), and our peak RSS (target < 1.5 GB), ours
 *    measured on the engine bundled and run as the Lambda runs it.
 *
 * Each part ends with one `TARGET … — met / NOT MET` line per bar. Without
 * poppler-utils the comparisons are skipped with a message; without the
 * corpus, the agreement part is.
 *
 * Options: --limit N (first N corpus files), --part agreement|speed (one part
 * only), --runs N (timed runs per side in the speed part, default 2),
 * --timeout S (per file and side in the agreement part, default 130: a page's
 * production limit of 120 s plus opening), --results FILE (every file's
 * agreement result as JSON, to look into the figures), --references (also
 * measure MuPDF and Ghostscript against pdftoppm on the same pages, for
 * scale; support/previews-reference-renderers.ts).
 */
import '../../lambdas/platform/polyfills';
import { parseArgs } from 'node:util';
import { DEFAULT_CORPUS, runAgreement } from './support/previews-agreement';
import { availableReferences } from './support/previews-reference-renderers';
import { runSpeed } from './support/previews-speed';
import { toolsAvailable } from './support/run-tool';

const { values } = parseArgs({
  options: {
    limit: { type: 'string' },
    part: { type: 'string' },
    runs: { type: 'string', default: '2' },
    // The production limit of one page is 120 s (render-pool.ts); opening comes on top.
    timeout: { type: 'string', default: '130' },
    results: { type: 'string' },
    references: { type: 'boolean', default: false },
  },
});
const positive = (name: string, v: string | undefined): number | null => {
  if (v === undefined) return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} wants a whole number ≥ 1, not ${v}`);
  return n;
};
if (values.part !== undefined && values.part !== 'agreement' && values.part !== 'speed') throw new Error(`--part is agreement or speed, not ${values.part}`);

// pdfjs reports every recoverable oddity of a damaged file; the figures are what matter.
console.warn = () => {};
const withPoppler = toolsAvailable('pdftoppm');
if (!withPoppler) console.log('pdftoppm not found (apt-get install poppler-utils): the comparisons with poppler are skipped.');

const started = performance.now();
if (values.part !== 'speed') {
  const references = values.references ? availableReferences() : [];
  if (values.references && references.length === 0) console.log('--references: neither mutool nor gs found (apt-get install mupdf-tools ghostscript); no figures for scale.');
  await runAgreement({
    corpus: DEFAULT_CORPUS,
    limit: positive('limit', values.limit),
    concurrency: 2,
    timeoutMs: positive('timeout', values.timeout)! * 1000,
    withPoppler,
    resultsFile: values.results ?? null,
    references,
  });
}
if (values.part !== 'agreement') {
  await runSpeed({ pages: 50, runs: positive('runs', values.runs)!, dpis: [72, 150], withPoppler });
}
console.log(`\nbench:previews done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
// The engine may keep warm render threads; the bench is over.
process.exit(0);
