/**
 * `npm run bench:preflight` — preflight speed on a generated 500-page text and
 * image PDF (support/speed-pdf.ts), side by side with poppler's `pdffonts` +
 * `pdfimages -list` on the same file, in the same run (quality bar;
 * target: ours at least as fast as the two poppler tools together).
 *
 * Ours: each run in a fresh process (support/preflight-once.ts) so its peak RSS
 * is its own, running the engine bundled as the Lambdas run it (plain node,
 * esbuild's bundle with the CDK's settings: support/lambda-bundle.ts), not
 * under tsx; the time is the preflight call in a warm engine (as the guard's
 * reused threads are after their first file: warmed on a 50-page file of the
 * same make, then the median of 3 calls), and the first call is printed too.
 * Poppler: both tools run one after the other, time summed, each under GNU
 * time for its peak RSS. The two sides take turns, run by run, so that both
 * meet the same load. Median of the runs for every figure.
 *
 * Options: --pages N (500), --runs N (5), --profile ID (default), --keep (leave
 * the generated file and print its path).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './support/concurrency';
import { bundleAsLambda, LAMBDA_NODE_ARGS, lambdaChildEnv } from './support/lambda-bundle';
import { GNU_TIME, MAX_RSS_FORMAT, maxRssFromTimeOutput } from './support/peak-rss';
import { runTool, toolsAvailable } from './support/run-tool';
import { buildSpeedPdf } from './support/speed-pdf';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    runs: { type: 'string', default: '5' },
    profile: { type: 'string', default: 'default' },
    keep: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const runs = Number(values.runs);
const root = path.resolve(import.meta.dirname, '../..');
const ONCE = path.join(import.meta.dirname, 'support/preflight-once.ts');
const TOOL_TIMEOUT_MS = 600_000;

interface OurRun {
  ms: number;
  firstMs: number;
  peakRssMb: number | null;
}

/** One preflight in a fresh process of the bundled engine; its JSON line. */
function preflightOnce(bundle: string, file: string, warmUp: string): Promise<OurRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...LAMBDA_NODE_ARGS, bundle, file, warmUp, values.profile], { cwd: root, env: lambdaChildEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`preflight run exited ${code}: ${out.slice(0, 500)}`));
      resolve(JSON.parse(line) as OurRun);
    });
  });
}

/** pdffonts then pdfimages -list; summed wall time and the larger peak RSS. */
async function popplerOnce(file: string): Promise<{ ms: number; fontsMs: number; imagesMs: number; peakRssMb: number | null }> {
  const timed = (tool: string, args: string[]) => (GNU_TIME ? runTool(GNU_TIME, ['-f', MAX_RSS_FORMAT, tool, ...args], TOOL_TIMEOUT_MS) : runTool(tool, args, TOOL_TIMEOUT_MS));
  const fonts = await timed('pdffonts', [file]);
  const images = await timed('pdfimages', ['-list', file]);
  for (const [name, r] of [['pdffonts', fonts], ['pdfimages -list', images]] as const) {
    if (r.outcome !== 'ok') throw new Error(`${name} ${r.outcome}: ${r.stderr.slice(0, 300)}`);
  }
  const rss = [maxRssFromTimeOutput(fonts.stderrTail), maxRssFromTimeOutput(images.stderrTail)].filter((n): n is number => n !== null);
  return { ms: fonts.ms + images.ms, fontsMs: fonts.ms, imagesMs: images.ms, peakRssMb: rss.length ? Math.max(...rss) : null };
}

const bundle = await bundleAsLambda(ONCE, 'preflight-speed');
const dir = await mkdtemp(path.join(tmpdir(), 'proofline-speed-'));
try {
  const file = path.join(dir, `speed-${pages}.pdf`);
  const warmUp = path.join(dir, 'warm-up-50.pdf');
  await writeFile(warmUp, await buildSpeedPdf({ pages: 50 }));
  const g0 = performance.now();
  await writeFile(file, await buildSpeedPdf({ pages }));
  const sizeMb = (await stat(file)).size / 1024 / 1024;
  console.log(`Preflight speed: generated ${pages} pages (text in an embedded font, ${pages * 4} image objects), ${sizeMb.toFixed(1)} MB in ${((performance.now() - g0) / 1000).toFixed(1)} s`);

  // Ours and poppler take turns, run by run: the load of this machine's neighbours drifts over
  // seconds, and runs of one side back to back measured each side under a different load.
  const withPoppler = toolsAvailable('pdffonts', 'pdfimages');
  const ours: OurRun[] = [];
  const poppler: Awaited<ReturnType<typeof popplerOnce>>[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await preflightOnce(bundle.outfile, file, warmUp));
    if (withPoppler) poppler.push(await popplerOnce(file));
  }
  const oursMs = median(ours.map((r) => r.ms));
  const oursRss = median(ours.flatMap((r) => (r.peakRssMb === null ? [] : [r.peakRssMb])));
  console.log(
    `ours (preflight, ${values.profile} profile, bundled engine):   median ${(oursMs / 1000).toFixed(2)} s over ${runs} runs, ${(pages / (oursMs / 1000)).toFixed(0)} pages/s, peak RSS ${Number.isFinite(oursRss) ? `${oursRss.toFixed(0)} MB` : 'n/a'}` +
      `  [runs: ${ours.map((r) => `${(r.ms / 1000).toFixed(2)} s`).join(', ')}; first call in each process: ${ours.map((r) => `${(r.firstMs / 1000).toFixed(2)} s`).join(', ')}]`,
  );

  if (!withPoppler) {
    console.log('poppler side skipped: pdffonts/pdfimages not found (apt-get install poppler-utils)');
  } else {
    const popplerMs = median(poppler.map((r) => r.ms));
    const popplerRss = median(poppler.flatMap((r) => (r.peakRssMb === null ? [] : [r.peakRssMb])));
    console.log(
      `poppler (pdffonts + pdfimages -list):  median ${(popplerMs / 1000).toFixed(2)} s over ${runs} runs, ${(pages / (popplerMs / 1000)).toFixed(0)} pages/s, peak RSS ${Number.isFinite(popplerRss) ? `${popplerRss.toFixed(0)} MB` : 'n/a'}` +
        `  [pdffonts ${(median(poppler.map((r) => r.fontsMs)) / 1000).toFixed(2)} s + pdfimages ${(median(poppler.map((r) => r.imagesMs)) / 1000).toFixed(2)} s]`,
    );
    const ratio = popplerMs / oursMs;
    console.log(`ratio poppler time / ours: ${ratio.toFixed(2)} (target ≥ 1.00: ours at least as fast) — ${ratio >= 1 ? 'met' : 'not met'}`);
  }
  if (values.keep) console.log(`file kept: ${file}`);
} finally {
  await bundle.remove();
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
