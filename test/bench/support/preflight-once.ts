/**
 * Child process of the speed bench: one preflight of one PDF in a fresh
 * process, so each run's peak RSS is its own. Prints one JSON line:
 * { ms, pages, outcome, peakRssMb }.
 *
 * `ms` is the preflight call alone, as a warm service spends it: the guard
 * keeps engine threads warm between files, so WARM_UP (a 50-page file of the
 * same make) is preflighted first (modules loaded, hot code compiled), then
 * the file is preflighted `REPEAT` times (default 3) and `ms` is the median;
 * `firstMs` is the first of them, for a thread that has seen only the small
 * file.
 *
 * The bench runs it bundled as the Lambdas are (lambda-bundle.ts):
 *   node --enable-source-maps BUNDLE FILE WARM_UP [PROFILE]
 * and it runs from source too:
 *   node --import tsx test/bench/support/preflight-once.ts FILE WARM_UP [PROFILE]
 */
import '../../../lambdas/platform/polyfills';
import { preflight } from '../../../lambdas/engine/preflight';
import { peakRssMb } from './peak-rss';

const [file, warmUp, profileId = 'default'] = process.argv.slice(2);
if (!file || !warmUp) throw new Error('usage: preflight-once FILE WARM_UP [PROFILE]');

await preflight({ path: warmUp, fileType: 'pdf', profileId, context: null });

const repeat = Math.max(1, Number(process.env.REPEAT ?? 3));
const times: number[] = [];
let result: Awaited<ReturnType<typeof preflight>> | undefined;
for (let i = 0; i < repeat; i++) {
  const t0 = performance.now();
  result = await preflight({ path: file, fileType: 'pdf', profileId, context: null });
  times.push(performance.now() - t0);
}
const sorted = [...times].sort((a, b) => a - b);
const ms = sorted[Math.floor(sorted.length / 2)]!;
console.log(JSON.stringify({ ms, firstMs: times[0], pages: result!.report.summary.pages, outcome: result!.outcome, peakRssMb: peakRssMb() }));
