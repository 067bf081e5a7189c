/**
 * `npm run bench:previews` — the previews quality bars, as figures:
 *
 * 1. Agreement (support/previews-agreement.ts, support/previews-consensus.ts):
 *    page 1 of every real-world PDF in ../shared/corpus/realworld/pdfjs
 *    rendered by our renderers (PDFium; pdf.js beside it, the fallback) and by
 *    three references, pdftoppm, `mutool draw` and Ghostscript, each skipped
 *    with a message when not installed (two are needed). Per renderer: the
 *    rendered share of the pages at least two references render (target
 *    ≥ 99 %), the mean RMSE to the closest reference (0–1; target ≤ 0.02) and
 *    the outliers, pages further from every reference than max(0.03, the
 *    largest distance between two references) (target ≤ 1 %); with both
 *    renderers, also production's figures (PDFium, pdf.js for the files
 *    PDFium refuses).
 * 2. Speed (support/previews-speed.ts): a generated 50-page PDF at 72 and 150
 *    dpi with the production renderer (PDFium; pdf.js with --renderer pdfjs),
 *    our pages per second against
 *    two pdftoppm processes on the same pages (target: ratio ≥ 1), and our
 *    peak RSS (target < 1.5 GB), ours measured on the engine bundled and run
 *    as the Lambda runs it.
 *
 * Each part ends with `TARGET … — met / NOT MET` lines. Without the corpus,
 * the agreement part is skipped.
 *
 * Options: --limit N (first N corpus files), --files LIST (only the corpus
 * files named in the text file LIST, one name a line: to compare variants on
 * chosen pages; --limit then takes the first N of those), --part agreement|speed (one part
 * only), --renderer pdfium|pdfjs|both (agreement; default both), --runs N
 * (timed runs per side in the speed part, default 2), --timeout S (per file,
 * renderer and reference in the agreement part, default 130: a page's
 * production limit of 120 s plus opening), --results FILE (every file's
 * agreement result as JSON, to look into the figures).
 */
import '../../lambdas/platform/polyfills';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_CORPUS, runAgreement } from './support/previews-agreement';
import { availableReferences } from './support/previews-reference-renderers';
import { runSpeed } from './support/previews-speed';
import { toolsAvailable } from './support/run-tool';

const { values } = parseArgs({
  options: {
    limit: { type: 'string' },
    files: { type: 'string' },
    part: { type: 'string' },
    runs: { type: 'string', default: '2' },
    // The production limit of one page is 120 s (render-pool.ts); opening comes on top.
    timeout: { type: 'string', default: '130' },
    results: { type: 'string' },
    renderer: { type: 'string', default: 'both' },
  },
});
const positive = (name: string, v: string | undefined): number | null => {
  if (v === undefined) return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} wants a whole number ≥ 1, not ${v}`);
  return n;
};
if (values.part !== undefined && values.part !== 'agreement' && values.part !== 'speed') throw new Error(`--part is agreement or speed, not ${values.part}`);
const RENDERERS = { pdfium: ['pdfium'], pdfjs: ['pdfjs'], both: ['pdfium', 'pdfjs'] } as const;
if (!(values.renderer in RENDERERS)) throw new Error(`--renderer is pdfium, pdfjs or both, not ${values.renderer}`);
const renderers = RENDERERS[values.renderer as keyof typeof RENDERERS];

// pdfjs reports every recoverable oddity of a damaged file; the figures are what matter.
console.warn = () => {};
const withPoppler = toolsAvailable('pdftoppm');
if (!withPoppler) console.log('pdftoppm not found (apt-get install poppler-utils): the comparisons with poppler are skipped.');

/** The file names in a --files list: one a line, blank lines and lines starting with # left out. */
function readFileList(list: string): string[] {
  return readFileSync(list, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

const started = performance.now();
if (values.part !== 'speed') {
  const references = availableReferences();
  for (const [name, tool] of [['MuPDF', 'mutool (apt-get install mupdf-tools)'], ['Ghostscript', 'gs (apt-get install ghostscript)']] as const) {
    if (!references.includes(name)) console.log(`${tool} not found: ${name} is skipped as a reference.`);
  }
  await runAgreement({
    corpus: DEFAULT_CORPUS,
    limit: positive('limit', values.limit),
    only: values.files === undefined ? null : readFileList(values.files),
    concurrency: 2,
    timeoutMs: positive('timeout', values.timeout)! * 1000,
    withPoppler,
    references,
    renderers,
    resultsFile: values.results ?? null,
  });
}
if (values.part !== 'agreement') {
  // The production renderer, PDFium, unless pdf.js alone is asked for.
  await runSpeed({ pages: 50, runs: positive('runs', values.runs)!, dpis: [72, 150], withPoppler, renderer: values.renderer === 'pdfjs' ? 'pdfjs' : 'pdfium' });
}
console.log(`\nbench:previews done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
// The engine may keep warm render threads; the bench is over.
process.exit(0);
