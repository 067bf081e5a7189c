/**
 * A child process of the previews bench that renders files with our engine
 * (renderPreviews) on request, one at a time, over the IPC channel. The bench
 * runs real-world files in children rather than in its own process: a file
 * that makes the renderer spin without yielding or blow up its memory is ended
 * with its child (and counted), and the bench goes on with a fresh one.
 *
 * Request:  { id, path, outDir, params, renderer?, fallback? } (the renderer
 *           and whether a file PDFium refuses goes to pdf.js: the render pool's
 *           options; production's defaults without them)
 * Answer:   { id, ok: true, images, failures, ms } or { id, ok: false, name, message, ms }
 */
import '../../../lambdas/platform/polyfills';
import { mkdir } from 'node:fs/promises';
import { readOptions } from '../../../lambdas/engine/previews/options';
import { renderPdfPreviews } from '../../../lambdas/engine/previews/render-pdf';
import type { Renderer } from '../../../lambdas/engine/previews/page-thread-protocol';

export interface RenderRequest {
  id: number;
  path: string;
  outDir: string;
  params: Record<string, unknown>;
  renderer?: Renderer;
  fallback?: boolean;
}

export type RenderAnswer =
  | {
      id: number;
      ok: true;
      images: { role: string; page: number; path: string; width: number; height: number }[];
      failures: { page: number; reason: string }[];
      ms: number;
    }
  | { id: number; ok: false; name: string; message: string; ms: number };

// Real-world files make pdfjs warn a lot; the bench counts outcomes, not warnings.
console.warn = () => {};
console.log = () => {};

process.on('message', (req: RenderRequest) => {
  const t0 = performance.now();
  mkdir(req.outDir, { recursive: true })
    .then(() => renderPdfPreviews(req.path, readOptions(req.params), req.outDir, undefined, { renderer: req.renderer, fallback: req.fallback }))
    .then(
    (r) => {
      const answer: RenderAnswer = {
        id: req.id,
        ok: true,
        images: r.images.map(({ role, page, path, width, height }) => ({ role, page, path, width, height })),
        failures: r.failures,
        ms: performance.now() - t0,
      };
      process.send?.(answer);
    },
    (err: unknown) => {
      const e = err as { name?: string; message?: string };
      const answer: RenderAnswer = { id: req.id, ok: false, name: e?.name ?? 'Error', message: String(e?.message ?? err).split('\n')[0]!, ms: performance.now() - t0 };
      process.send?.(answer);
    },
  );
});

process.send?.({ ready: true });
