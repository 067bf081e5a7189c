/**
 * pdfjs-dist set up for Node and for esbuild bundles.
 *
 * - In Node, pdfjs runs a "fake worker" in the same thread and would load
 *   pdf.worker.mjs with a dynamic import, which an esbuild bundle cannot
 *   resolve. Importing the worker statically and exposing it as
 *   `globalThis.pdfjsWorker` makes pdfjs use it directly.
 * - Fonts, CMaps and wasm decoders (JPEG 2000, JBIG2) are read from disk: from
 *   PDFJS_ASSETS_DIR (the Lambda bundle ships `pdfjs/standard_fonts/`,
 *   `pdfjs/cmaps/`, `pdfjs/wasm/` and sets it), else from the installed
 *   pdfjs-dist package. Without them standard fonts and CJK text would vanish
 *   silently from previews.
 * - Canvases and canvas filters come from soft-masks.ts, so soft masks work
 *   in Node as they do in a browser.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MaskingCanvasFactory, SoftMaskFilterFactory } from './soft-masks';

const g = globalThis as { pdfjsWorker?: unknown };
g.pdfjsWorker ??= pdfjsWorker;

export interface PdfjsAssets {
  standardFontDataUrl: string;
  cMapUrl: string;
  wasmUrl: string;
}

let assets: PdfjsAssets | undefined;

/** The pdfjs data directories, each with a trailing slash as pdfjs expects. */
export function pdfjsAssets(): PdfjsAssets {
  if (assets) return assets;
  const root = process.env.PDFJS_ASSETS_DIR || installedPdfjsDir();
  const dir = (name: string) => {
    const path = join(root, name);
    if (!existsSync(path)) throw new Error(`pdfjs assets missing: ${path} (set PDFJS_ASSETS_DIR)`);
    return `${path}/`;
  };
  assets = { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm') };
  return assets;
}

function installedPdfjsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

/** Opens a PDF for rendering. pdfjs takes ownership of (and detaches) the buffer it gets, so it gets a copy. */
export async function openForRendering(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const task = getDocument({
    data: new Uint8Array(bytes),
    ...pdfjsAssets(),
    cMapPacked: true,
    isEvalSupported: false,
    CanvasFactory: MaskingCanvasFactory,
    FilterFactory: SoftMaskFilterFactory,
    // Errors: 0. pdfjs otherwise logs every recoverable oddity of real-world files.
    verbosity: 0,
  });
  return task.promise;
}
