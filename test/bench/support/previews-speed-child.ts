/**
 * The engine process of the previews speed bench (previews-speed-engine.ts
 * bundles this module and starts the bundle with plain node): renders on
 * request with the render pool (the renderer asked for; production's, PDFium
 * with the pdf.js fallback, by default) and answers with the wall time, or with the
 * process's peak RSS.
 *
 * Request:  { id, op: 'render', path, params, outDir, renderer? } or { id, op: 'peak-rss' }
 * Answer:   { id, ms, images, failures } or { id, peakRssMb }, or { id, error }
 */
import '../../../lambdas/platform/polyfills';
import { rm } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import { mkdir } from 'node:fs/promises';
import { readOptions } from '../../../lambdas/engine/previews/options';
import type { Renderer } from '../../../lambdas/engine/previews/page-thread-protocol';
import { renderPdfPreviews } from '../../../lambdas/engine/previews/render-pdf';
import { peakRssMb } from './peak-rss';

export type SpeedRequest =
  | { id: number; op: 'render'; path: string; params: Record<string, unknown>; outDir: string; renderer?: Renderer }
  | { id: number; op: 'peak-rss' };

export interface SpeedAnswer {
  id: number;
  ms?: number;
  images?: number;
  failures?: string[];
  peakRssMb?: number | null;
  error?: string;
}

async function answer(req: SpeedRequest): Promise<SpeedAnswer> {
  if (req.op === 'peak-rss') return { id: req.id, peakRssMb: peakRssMb() };
  const t0 = performance.now();
  await mkdir(req.outDir, { recursive: true });
  const r = await renderPdfPreviews(req.path, readOptions(req.params), req.outDir, undefined, { renderer: req.renderer });
  const ms = performance.now() - t0;
  await rm(req.outDir, { recursive: true, force: true });
  return { id: req.id, ms, images: r.images.length, failures: r.failures.map((f) => `page ${f.page}: ${f.reason}`) };
}

// The render threads start from this same bundle (render-pool.ts); only the
// process's main thread serves the bench.
if (isMainThread && process.send) {
  // pdfjs reports every recoverable oddity; the figures are what matter.
  console.warn = () => {};
  process.on('message', (req: SpeedRequest) => {
    answer(req).then(
      (a) => process.send!(a),
      (e: unknown) => process.send!({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies SpeedAnswer),
    );
  });
  process.send({ ready: true });
}
