/**
 * optimizePdf: a PDF made smaller without a visible change, written to
 * `outPath` only when it is smaller than the original; otherwise nothing is
 * left there and the original stays the deliverable.
 *
 * The transforms run in this order, each a fix id of the result:
 * 1. images.downsample: images placed above downsampleAbovePpi (at their
 *    largest placement) resampled to maxImagePpi: autofix's images.downsample,
 *    the same code (autofix/images/downsample.ts);
 * 2. streams.recompress: lossless streams compressed again (recompress.ts);
 * 3. objects.dedupe: identical streams and resources merged (dedupe.ts);
 * 4. objects.drop-unused: objects nothing refers to left out (autofix's
 *    unreferenced.ts), the copies and images the steps before replaced
 *    among them;
 * 5. file.object-streams: the file written with object streams and a
 *    compressed cross-reference stream (core/writer/object-stream-writer.ts),
 *    else written whole with a classic table (core/writer/whole-file-writer.ts);
 * 6. file.linearize (only when asked for): the file written linearized for
 *    fast web view (core/writer/linearized-writer.ts), its objects after the
 *    first page's packed in object streams when file.object-streams applies,
 *    else with classic tables. A linearized file is a little larger than the
 *    same objects written plainly; it is still kept only when smaller than
 *    the original.
 *
 * Signed and encrypted files are never rewritten (pdf-constraints.ts). The
 * written file is opened again by our reader before it is reported.
 */
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PDFHeader } from '@cantoo/pdf-lib';
import { downsampleImages } from '../autofix/images/downsample';
import { dropUnreferencedObjects } from '../autofix/unreferenced';
import { openPdfFile, type OpenedPdf } from '../core/load-pdf';
import { linearizationRefusal, writeLinearizedPdf } from '../core/writer/linearized-writer';
import { writePdfWithObjectStreams } from '../core/writer/object-stream-writer';
import { writeWholePdf } from '../core/writer/whole-file-writer';
import { dedupeObjects } from './dedupe';
import { resolvePdfParams, type PdfOptimizeParams, type ResolvedPdfParams } from './params';
import { objectStreamsRefusal, rewriteRefusal } from './pdf-constraints';
import { recompressStreams } from './recompress';
import { FixLog, notSmaller } from './fix-log';
import type { OptimizeResult } from './types';

const PDF_FIXES = ['images.downsample', 'streams.recompress', 'objects.dedupe', 'objects.drop-unused', 'file.object-streams', 'file.linearize'] as const;

export async function optimizePdf(inPath: string, outPath: string, params: PdfOptimizeParams = {}): Promise<OptimizeResult> {
  const p = resolvePdfParams(params);
  const sizeBytesBefore = statSync(inPath).size;
  const pdf = await openPdfFile(inPath);
  const log = new FixLog();
  try {
    const refusal = rewriteRefusal(pdf);
    if (refusal) {
      for (const id of PDF_FIXES) log.skip(id, refusal);
      return log.result(sizeBytesBefore, null);
    }
    await transform(pdf, p, log);
    if (log.applied.length === 0) return log.result(sizeBytesBefore, null);
    await write(pdf, p, outPath, log);
  } finally {
    pdf.source.close();
  }
  const sizeBytes = statSync(outPath).size;
  if (sizeBytes >= sizeBytesBefore) {
    await rm(outPath, { force: true });
    return notSmaller(log, sizeBytesBefore, sizeBytes);
  }
  await assertLoads(outPath);
  return log.result(sizeBytesBefore, sizeBytes);
}

async function transform(pdf: OpenedPdf, p: ResolvedPdfParams, log: FixLog): Promise<void> {
  const { doc } = pdf;
  if (!p.downsample) log.off('images.downsample', 'pdf.downsample');
  else {
    const outcome = await downsampleImages(doc, { ppi: p.maxImagePpi, thresholdPpi: p.downsampleAbovePpi, quality: p.jpegQuality });
    if (outcome.count > 0) log.apply('images.downsample');
    else log.skip('images.downsample', outcome.skipReason ?? `No image is placed at more than ${p.downsampleAbovePpi} ppi, so none was downsampled.`);
  }

  if (!p.recompress) log.off('streams.recompress', 'pdf.recompress');
  else if (recompressStreams(doc, p.flateLevel).streams > 0) log.apply('streams.recompress');
  else log.skip('streams.recompress', `No stream became smaller when compressed again with Flate at level ${p.flateLevel}.`);

  if (!p.dedupe) log.off('objects.dedupe', 'pdf.dedupe');
  else if (dedupeObjects(doc).merged > 0) log.apply('objects.dedupe');
  else log.skip('objects.dedupe', 'No image, font or other object is stored twice.');

  if (!p.dropUnused) log.off('objects.drop-unused', 'pdf.dropUnused');
  else if (dropUnreferencedObjects(doc) > 0) log.apply('objects.drop-unused');
  else log.skip('objects.drop-unused', 'Every object in the file is in use.');

  if (!p.objectStreams) log.off('file.object-streams', 'pdf.objectStreams');
  else {
    const refusal = objectStreamsRefusal(pdf);
    if (refusal) log.skip('file.object-streams', refusal);
    else log.apply('file.object-streams');
  }

  if (!p.linearize) log.off('file.linearize', 'pdf.linearize');
  else {
    const refusal = linearizationRefusal(doc);
    if (refusal) log.skip('file.linearize', refusal);
    else log.apply('file.linearize');
  }
}

async function write(pdf: OpenedPdf, p: ResolvedPdfParams, outPath: string, log: FixLog): Promise<void> {
  const { doc } = pdf;
  const objectStreams = log.applied.includes('file.object-streams');
  if (objectStreams) {
    // Object streams are PDF 1.5 (ISO 32000-1 7.5.7).
    const [major, minor] = doc.context.header.getVersionString().split('.').map(Number);
    if (!(major! > 1 || (major === 1 && minor! >= 5))) doc.context.header = PDFHeader.forVersion(1, 5);
  }
  if (log.applied.includes('file.linearize')) await writeLinearizedPdf(doc, outPath, objectStreams ? { objectStreams: { flateLevel: p.flateLevel } } : {});
  else if (objectStreams) await writePdfWithObjectStreams(doc, outPath, { flateLevel: p.flateLevel });
  else await writeWholePdf(doc, outPath);
}

/** The optimized file is opened again before it is reported, so optimize never hands on a file that does not load. */
async function assertLoads(path: string): Promise<void> {
  const reopened = await openPdfFile(path).catch((e: unknown) => {
    throw new Error(`optimize produced a PDF that does not load again: ${e instanceof Error ? e.message : String(e)}`);
  });
  reopened.source.close();
}
