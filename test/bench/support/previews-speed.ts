/**
 * Second part of `npm run bench:previews`: pages per second rendering a
 * generated 50-page PDF (previews-speed-pdf.ts) at 72 and at 150 dpi, ours
 * against pdftoppm on the same pages in the same run.
 *
 * Ours: the render pool (png, all 50 pages, no thumbnail; PDFium unless
 * --renderer pdfjs) in the engine as the
 * Lambda runs it, bundled, in a process of its own (previews-speed-engine.ts),
 * whose peak RSS (VmHWM) covers the engine and the threads it renders in.
 * Runs alternate between the sides. One untimed call on page 1 first (loads
 * the renderer and starts the engine's threads, as in a warm Lambda; its time is
 * printed); then `runs` timed calls per dpi, median, with the fastest and
 * slowest run printed too.
 *
 * pdftoppm renders one page at a time in one thread; our engine may use both
 * cores, so poppler gets both too: two pdftoppm processes at once, pages 1–25
 * and 26–50, timed from the start of the first to the end of the last (each
 * under GNU time, for its peak RSS).
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './concurrency';
import { GNU_TIME, MAX_RSS_FORMAT, maxRssFromTimeOutput } from './peak-rss';
import { verdict } from './previews-agreement-summary';
import { BundledEngine } from './previews-speed-engine';
import { buildPreviewsSpeedPdf } from './previews-speed-pdf';
import { runTool } from './run-tool';
import type { Renderer } from '../../../lambdas/engine/previews/page-thread-protocol';

export interface SpeedOptions {
  pages: number;
  runs: number;
  dpis: number[];
  withPoppler: boolean;
  /** Default production's: PDFium, with pdf.js for a file PDFium refuses. */
  renderer?: Renderer;
}

export const SPEED_RATIO_TARGET = 1;
export const PEAK_RSS_TARGET_MB = 1536;
const POPPLER_TIMEOUT_MS = 600_000;

interface Figures {
  dpi: number;
  oursMs: number;
  /** Every timed run of ours, in order. */
  oursRunsMs: number[];
  popplerMs: number | null;
  popplerRssMb: number | null;
}

export async function runSpeed(o: SpeedOptions): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proofline-previews-speed-'));
  const engine = await BundledEngine.start();
  try {
    const file = path.join(dir, `previews-${o.pages}.pdf`);
    await writeFile(file, await buildPreviewsSpeedPdf({ pages: o.pages }));
    const sizeMb = (await stat(file)).size / 1024 / 1024;
    console.log(`\nPreview speed (${o.renderer ?? 'pdfium'}): generated ${o.pages} A4 pages (text in an embedded font, vector shapes, one RGB image each), ${sizeMb.toFixed(1)} MB; png, ${o.runs} timed run(s) per side, median.`);
    if (!o.withPoppler) console.log('  poppler side skipped: pdftoppm not found (apt-get install poppler-utils)');

    const w0 = performance.now();
    await renderOurs(engine, file, { ...params(o.dpis[0] ?? 72), pages: '1' }, path.join(dir, 'warm-up'), 1, o.renderer);
    const warmUpMs = performance.now() - w0;

    const figures: Figures[] = [];
    for (const dpi of o.dpis) {
      const out = path.join(dir, `ours-${dpi}`);
      const ours: number[] = [];
      const poppler: { ms: number; rssMb: number | null }[] = [];
      // Interleaved, so a burst of other load on the machine falls on both sides alike.
      for (let i = 0; i < o.runs; i++) {
        ours.push(await renderOurs(engine, file, params(dpi), out, o.pages, o.renderer));
        if (o.withPoppler) poppler.push(await renderPoppler(file, dpi, o.pages, path.join(dir, `poppler-${dpi}`)));
      }
      figures.push({
        dpi,
        oursMs: median(ours),
        oursRunsMs: ours,
        popplerMs: poppler.length ? median(poppler.map((p) => p.ms)) : null,
        popplerRssMb: poppler.length ? Math.max(...poppler.map((p) => p.rssMb ?? 0)) || null : null,
      });
      await rm(out, { recursive: true, force: true });
    }

    console.log(`  untimed warm-up call first (page 1 at ${o.dpis[0] ?? 72} dpi, loads the engine): ${(warmUpMs / 1000).toFixed(2)} s`);
    const pps = (ms: number) => (o.pages / (ms / 1000)).toFixed(1);
    for (const f of figures) {
      const spread = f.oursRunsMs.length > 1 ? `, runs ${pps(Math.max(...f.oursRunsMs))}–${pps(Math.min(...f.oursRunsMs))}` : '';
      const ours = `ours ${pps(f.oursMs)} pages/s (${(f.oursMs / 1000).toFixed(2)} s${spread})`;
      const poppler = f.popplerMs === null ? '' : `, pdftoppm ×2 ${pps(f.popplerMs)} pages/s (${(f.popplerMs / 1000).toFixed(2)} s, peak RSS per process ${f.popplerRssMb?.toFixed(0) ?? 'n/a'} MB)`;
      console.log(`  ${String(f.dpi).padStart(3)} dpi: ${ours}${poppler}${f.popplerMs === null ? '' : `, ratio ours/poppler ${(f.popplerMs / f.oursMs).toFixed(2)}`}`);
    }
    const rss = await engine.peakRssMb();
    console.log(`  our peak RSS (the bundled engine's process and its render threads, whole speed run): ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`}`);
    for (const f of figures) {
      if (f.popplerMs === null) continue;
      const ratio = f.popplerMs / f.oursMs;
      console.log(`TARGET pages/s at ${f.dpi} dpi ≥ pdftoppm's (ratio ≥ ${SPEED_RATIO_TARGET}): ${ratio.toFixed(2)} — ${verdict(ratio >= SPEED_RATIO_TARGET)}`);
    }
    console.log(`TARGET peak RSS < ${PEAK_RSS_TARGET_MB / 1024} GB: ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`} — ${verdict(rss !== null && rss < PEAK_RSS_TARGET_MB)}`);
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const params = (dpi: number) => ({ format: 'png', dpi, thumbnail: false });

/** One renderPreviews call in the engine process; its wall time there. Any page that fails makes the figure meaningless, so it stops the bench. */
async function renderOurs(engine: BundledEngine, file: string, p: Record<string, unknown>, outDir: string, expected: number, renderer?: Renderer): Promise<number> {
  const r = await engine.render(file, { ...p, pages: p.pages ?? `1-${expected}` }, outDir, renderer);
  if (r.failures.length || r.images !== expected) throw new Error(`our render delivered ${r.images}/${expected} pages: ${r.failures.join('; ')}`);
  return r.ms;
}

/** Two pdftoppm processes over the two halves of the pages, at once. */
async function renderPoppler(file: string, dpi: number, pages: number, outDir: string): Promise<{ ms: number; rssMb: number | null }> {
  await mkdir(outDir, { recursive: true });
  const half = Math.ceil(pages / 2);
  const ranges = [[1, half], [half + 1, pages]].filter(([a, b]) => a! <= b!);
  const t0 = performance.now();
  const runs = await Promise.all(
    ranges.map(([from, to], i) => {
      const args = ['-r', String(dpi), '-f', String(from), '-l', String(to), '-png', file, path.join(outDir, `half${i}`)];
      return GNU_TIME ? runTool(GNU_TIME, ['-f', MAX_RSS_FORMAT, 'pdftoppm', ...args], POPPLER_TIMEOUT_MS) : runTool('pdftoppm', args, POPPLER_TIMEOUT_MS);
    }),
  );
  const ms = performance.now() - t0;
  for (const r of runs) if (r.outcome !== 'ok') throw new Error(`pdftoppm ${r.outcome}: ${r.stderr.slice(0, 300)}`);
  await rm(outDir, { recursive: true, force: true });
  const rss = runs.map((r) => maxRssFromTimeOutput(r.stderrTail)).filter((n): n is number => n !== null);
  return { ms, rssMb: rss.length ? Math.max(...rss) : null };
}
