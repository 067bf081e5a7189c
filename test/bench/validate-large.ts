/**
 * Second part of `npm run bench:conformance`: memory and time of validating a
 * 1,000-page file (target: "a 1,000-page file validates in well under 1 GB";
 * veraPDF users report 8 GB for 900 pages). The file is the speed bench's
 * generated PDF at 1,000 pages: 40 lines of embedded-font text and four image
 * XObjects (one inside a form) per page, so every area's rules have objects to
 * read. It is validated in this process, unguarded, against PDF/A-2b and
 * PDF/UA-1 at once; the figure is the process's peak RSS (VmHWM).
 */
import '../../lambdas/platform/polyfills';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validate } from '../../lambdas/engine/validate';
import { buildSpeedPdf } from './support/speed-pdf';
import { peakRssMb } from './support/peak-rss';

const PAGES = 1000;
console.warn = () => {};
const dir = await mkdtemp(path.join(tmpdir(), 'validate-large-'));
try {
  const bytes = await buildSpeedPdf({ pages: PAGES });
  const file = path.join(dir, 'large.pdf');
  await writeFile(file, bytes);
  const before = peakRssMb();
  const t0 = performance.now();
  const result = await validate({ path: file, profiles: ['2b', 'ua1'] });
  const seconds = (performance.now() - t0) / 1000;
  const peak = peakRssMb();
  const failed = result.profiles.map((p) => `${p.matched}: ${p.rules.failed} rules failed, ${p.checks.passed + p.checks.failed} checks`).join('; ');
  console.log(`\n${PAGES}-page file (${(bytes.length / 1024 / 1024).toFixed(1)} MB), profiles 2b + ua1: ${seconds.toFixed(1)} s, peak RSS ${peak?.toFixed(0) ?? '?'} MB (${before?.toFixed(0) ?? '?'} MB after building it) — target well under 1024 MB. ${failed}.`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
