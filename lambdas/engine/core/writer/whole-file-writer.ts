/**
 * A document written whole, object by object, to a file: the header, every
 * object of the context, a classic cross-reference table and the trailer.
 * pdf-lib's own writer first measures everything and then fills one buffer as
 * large as the file; this one holds one object at a time (streams read their
 * contents as they are written), so writing a 500 MB file costs the memory of
 * its largest object, not of the file.
 *
 * Classic tables and no object streams: every workflow reads them, and PDF/A-1
 * requires them. Streams that only carried the source's cross-reference data
 * or packed objects are not copied (their members are written one by one).
 * The trailer keeps Root, Info and ID; documents reach this writer decrypted,
 * so no Encrypt is written.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { prepareForSave } from './prepare';
import { trailerEntries, trailerText, xrefTable, type XrefEntry } from './cross-reference';
import { FileSink } from './file-sink';
import { indirectObjectBytes, isStructuralStream } from './indirect-object';

/** High bytes on the second line tell transfer tools the file is binary (7.5.2; PDF/A 6.1.2). */
export const BINARY_COMMENT = Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

export async function writeWholePdf(doc: PDFDocument, outPath: string): Promise<void> {
  await prepareForSave(doc);
  const { context } = doc;
  const sink = await FileSink.create(outPath);
  try {
    await sink.writeText(`%PDF-${context.header.getVersionString()}\n`);
    await sink.write(BINARY_COMMENT);
    const entries: XrefEntry[] = [];
    let largest = 0;
    for (const [ref, object] of context.enumerateIndirectObjects()) {
      if (isStructuralStream(object)) continue;
      entries.push({ objectNumber: ref.objectNumber, generation: ref.generationNumber, offset: sink.offset });
      largest = Math.max(largest, ref.objectNumber);
      await sink.write(indirectObjectBytes(ref, object));
    }
    const startxref = sink.offset;
    await sink.writeText(xrefTable(entries, true));
    await sink.writeText(trailerText(context, trailerEntries(doc.context, largest + 1)));
    await sink.writeText(`startxref\n${startxref}\n%%EOF\n`);
  } finally {
    await sink.close();
  }
}
