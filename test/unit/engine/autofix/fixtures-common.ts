/**
 * What the autofix tests of every area measure with, in one place: running
 * one fix the way the engine does, rendering with the previews engine,
 * comparing pixels, extracting text, preflight and qpdf. Each area's
 * fixtures.ts builds its own PDFs and re-exports what it uses from here.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { FixOutcome } from '../../../../lambdas/engine/autofix/fix';
import { FIX_IMPLEMENTATIONS } from '../../../../lambdas/engine/autofix/registry';
import { findFix, fixParams } from '../../../../lambdas/engine/profile-catalogue';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import { renderPreviews } from '../../../../lambdas/engine/previews/index';
import { openForRendering } from '../../../../lambdas/engine/previews/pdfjs';

export const A4: [number, number] = [595.28, 841.89];

export interface FixRun {
  outcome: FixOutcome;
  before: Uint8Array;
  after: Uint8Array;
  doc: PDFDocument;
}

/** Runs one fix as the engine does: open, fix with the catalogue's defaults over `params`, save, re-open. */
export async function runFix(fixId: string, input: PDFDocument | Uint8Array, params: Record<string, unknown> = {}): Promise<FixRun> {
  const before = input instanceof Uint8Array ? input : await input.save({ useObjectStreams: false });
  const { doc } = await openPdfBytes(before);
  const outcome = await FIX_IMPLEMENTATIONS[fixId]!(doc, { order: null, params: fixParams(findFix(fixId)!, params) });
  const after = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  const reopened = await openPdfBytes(after);
  return { outcome, before, after, doc: reopened.doc };
}

/** Pixels of a rendered page, rows top to bottom; RGB (previews engine) or RGBA (a pdfjs canvas). */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** A file's pages rendered by the previews engine (PNG, 72 dpi unless told), as raw RGB, in page order. */
export async function previewRasters(path: string, outDir: string, params: { dpi?: number; pages?: string } = {}): Promise<(Raster & { data: Uint8Array })[]> {
  const result = await renderPreviews({ file: path, fileType: 'pdf', params: { format: 'png', dpi: params.dpi ?? 72, thumbnail: false, ...(params.pages ? { pages: params.pages } : {}) }, outDir });
  expect(result.failures).toEqual([]);
  const out = [];
  for (const img of result.images.filter((i) => i.role === 'preview').sort((a, b) => a.page - b.page)) {
    const { data, info } = await sharp(await readFile(img.path)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    out.push({ data: new Uint8Array(data), width: info.width, height: info.height });
  }
  return out;
}

/** Renders every page of `bytes` with the previews engine (PNG, 72 dpi), the file written to `dir`. */
export async function previewPixels(bytes: Uint8Array, dir: string): Promise<(Raster & { data: Uint8Array })[]> {
  const path = join(dir, `p${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, bytes);
  return previewRasters(path, `${path}.out`);
}

/** Bytes a pixel: 3 for RGB, 4 for RGBA. */
const channelsOf = (img: Raster): number => Math.round(img.data.length / (img.width * img.height));

/** Share of pixels whose R, G or B differs by more than `tolerance` (0–255); 1 when the sizes differ. */
export function differingShare(a: Raster, b: Raster, tolerance = 24): number {
  if (a.data.length !== b.data.length) return 1;
  const step = channelsOf(a);
  let differing = 0;
  for (let i = 0; i < a.data.length; i += step) {
    if (Math.abs(a.data[i]! - b.data[i]!) > tolerance || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > tolerance || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > tolerance) differing++;
  }
  return differing / (a.data.length / step);
}

/** The RGB of the pixel at PDF point (x, y) of a 72 dpi render of a page whose MediaBox starts at 0 0. */
export function pixelAt(img: Raster, x: number, y: number): [number, number, number] {
  const i = (Math.floor(img.height - y) * img.width + Math.floor(x)) * channelsOf(img);
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/** Text of every page, as pdfjs extracts it. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openForRendering(bytes);
  try {
    const out: string[] = [];
    for (let i = 1; i <= pdf.numPages; i++) {
      const content = await (await pdf.getPage(i)).getTextContent();
      out.push(content.items.map((it) => ('str' in it ? it.str : '')).join(''));
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

/** The check ids preflight reports for a file. */
export async function preflightChecks(bytes: Uint8Array, dir: string, profileId = 'default'): Promise<string[]> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, bytes);
  const result = await preflight({ path, fileType: 'pdf', profileId, context: null });
  return result.report.findings.map((f) => f.checkId);
}

/** qpdf --check's exit status for a file: 0 clean, 3 warnings, 2 errors. */
export async function qpdfCheck(bytes: Uint8Array, dir: string): Promise<number> {
  const path = join(dir, `q${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, bytes);
  return spawnSync('qpdf', ['--check', path], { encoding: 'utf8' }).status ?? -1;
}
