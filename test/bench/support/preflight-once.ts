/**
 * Child process of the speed bench: one preflight of one PDF in a fresh
 * process, so each run's peak RSS is its own. Prints one JSON line:
 * { ms, pages, outcome, peakRssMb }.
 *
 * `ms` is the preflight call alone, as a warm service spends it: a one-page
 * file of the same make is preflighted first, so modules the engine loads on
 * first use (compiled on the fly under tsx) are not timed.
 *
 *   node --import tsx test/bench/support/preflight-once.ts FILE [PROFILE]
 */
import '../../../lambdas/platform/polyfills';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { preflight } from '../../../lambdas/engine/preflight';
import { peakRssMb } from './peak-rss';
import { buildSpeedPdf } from './speed-pdf';

const [file, profileId = 'default'] = process.argv.slice(2);
if (!file) throw new Error('usage: preflight-once.ts FILE [PROFILE]');

const dir = await mkdtemp(path.join(tmpdir(), 'proofline-warm-'));
try {
  const warmUp = path.join(dir, 'warm-up.pdf');
  await writeFile(warmUp, await buildSpeedPdf({ pages: 1 }));
  await preflight({ path: warmUp, fileType: 'pdf', profileId, context: null });
} finally {
  await rm(dir, { recursive: true, force: true });
}

const t0 = performance.now();
const result = await preflight({ path: file, fileType: 'pdf', profileId, context: null });
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, pages: result.report.summary.pages, outcome: result.outcome, peakRssMb: peakRssMb() }));
