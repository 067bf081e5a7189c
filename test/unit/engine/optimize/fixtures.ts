/**
 * Fixtures for the optimize tests: PDFs built in code with what each
 * transform removes (uncompressed or weakly compressed streams, copies of one
 * image, objects nothing refers to, images placed at known resolutions), and
 * the measurements the tests use: running optimizePdf on bytes, re-opening the
 * result with our reader, and qpdf --check when qpdf is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts } from '@cantoo/pdf-lib';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { streamBytes } from '../../../../lambdas/engine/core/pdf-objects';
import { optimizePdf } from '../../../../lambdas/engine/optimize/optimize-pdf';
import type { PdfOptimizeParams } from '../../../../lambdas/engine/optimize/params';
import type { OptimizeResult } from '../../../../lambdas/engine/optimize/types';
import type { tempFiles } from '../temp-files';

export { imagePdf, imageXObject, ptAt, samples } from '../autofix/images/fixtures';

/** Page content drawing many small rectangles: compresses well, so its encoding shows in the file's size. */
export function busyContent(seed = 0): string {
  let out = 'BT /F1 12 Tf 40 800 Td (Optimized stays the same) Tj ET\n';
  for (let i = 0; i < 400; i++) out += `${(i * 7 + seed) % 500} ${(i * 13) % 700} 20 10 re ${(i % 10) / 10} g f\n`;
  return out;
}

/** A page of `content` with Helvetica as F1 and the given XObjects. */
export function addPage(doc: PDFDocument, content: PDFRef, font: PDFRef, xobjects: Record<string, PDFRef> = {}): void {
  const page = doc.addPage([595.28, 841.89]);
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: font }, XObject: xobjects } as never));
  page.node.set(PDFName.of('Contents'), content);
}

export async function withFont(): Promise<{ doc: PDFDocument; font: PDFRef }> {
  const doc = await PDFDocument.create();
  const font = (await doc.embedFont(StandardFonts.Helvetica)).ref;
  return { doc, font };
}

/** A stream stored as given: uncompressed, or Flate at `level`. */
export function stream(doc: PDFDocument, data: string | Uint8Array, level: number | null, dict: Record<string, unknown> = {}): PDFRef {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const stored = level === null ? bytes : deflateSync(bytes, { level });
  const d = doc.context.obj({ ...dict, ...(level === null ? {} : { Filter: 'FlateDecode' }) } as never) as unknown as PDFDict;
  return doc.context.register(PDFRawStream.of(d, stored));
}

export const save = (doc: PDFDocument): Promise<Uint8Array> => doc.save({ useObjectStreams: false });

export interface Optimized {
  result: OptimizeResult;
  before: Uint8Array;
  /** The output, or null when none was kept. */
  after: Uint8Array | null;
  outPath: string;
}

export async function runOptimize(files: ReturnType<typeof tempFiles>, input: PDFDocument | Uint8Array, params: PdfOptimizeParams = {}): Promise<Optimized> {
  const before = input instanceof Uint8Array ? input : await save(input);
  const inPath = files.write(before, 'pdf');
  const outPath = `${inPath}.out.pdf`;
  const result = await optimizePdf(inPath, outPath, params);
  return { result, before, after: existsSync(outPath) ? new Uint8Array(readFileSync(outPath)) : null, outPath };
}

/** The decoded content of every page, as our reader reads it. */
export async function pageContents(bytes: Uint8Array): Promise<string[]> {
  const { doc } = await openPdfBytes(bytes);
  return doc.getPages().map((p) => {
    const c = p.node.lookup(PDFName.of('Contents'));
    return c instanceof PDFRawStream ? Buffer.from(streamBytes(c) ?? []).toString('latin1') : '';
  });
}

export const QPDF = spawnSync('qpdf', ['--version'], { stdio: 'ignore' }).error === undefined;

/** qpdf --check's exit status (0 clean, 3 warnings, 2 errors), or null without qpdf. */
export function qpdfStatus(path: string): number | null {
  if (!QPDF) return null;
  return spawnSync('qpdf', ['--check', path], { encoding: 'utf8' }).status;
}
