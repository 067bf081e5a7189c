/**
 * An incremental update (ISO 32000-1 7.5.6): the original file's bytes,
 * copied unchanged, then the objects that changed, a cross-reference section
 * for them alone whose /Prev points at the original's newest one, and a new
 * trailer. The rest of the file is neither parsed nor rewritten, so fixing a
 * few page dictionaries of a 500 MB file costs a file copy; and what was
 * signed stays byte for byte as it was signed.
 *
 * The new section has the form of the original's newest one: a classic table
 * after a table, a cross-reference stream after a stream (a reader that
 * follows a file's chain of sections then meets only the kind it already met).
 */
import { copyFile } from 'node:fs/promises';
import { PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { FileSink } from './file-sink';
import { indirectObjectBytes } from './indirect-object';
import { prepareForSave } from './prepare';
import { trailerEntries, trailerText, xrefStream, xrefTable, type XrefEntry } from './cross-reference';

export interface OriginalRevision {
  path: string;
  /** Offset of the original's newest cross-reference section (its `startxref`). */
  startxref: number;
  /** Whether that section is a cross-reference stream rather than a table. */
  xrefIsStream: boolean;
  /** The original trailer's /Size. */
  size: number;
}

export interface Changes {
  /** Objects to write: changed, replaced or new. */
  written: [PDFRef, PDFObject][];
  /** Objects the update frees. */
  freed: PDFRef[];
}

export async function appendIncrementalUpdate(doc: PDFDocument, original: OriginalRevision, changes: Changes, outPath: string): Promise<void> {
  await prepareForSave(doc);
  const { context } = doc;
  await copyFile(original.path, outPath);
  const sink = await FileSink.append(outPath);
  try {
    // The original may end without an end-of-line after %%EOF.
    await sink.writeText('\n');
    const entries: XrefEntry[] = [];
    let largest = original.size - 1;
    for (const [ref, object] of changes.written) {
      entries.push({ objectNumber: ref.objectNumber, generation: ref.generationNumber, offset: sink.offset });
      largest = Math.max(largest, ref.objectNumber);
      await sink.write(indirectObjectBytes(ref, object));
    }
    for (const ref of changes.freed) entries.push({ objectNumber: ref.objectNumber, generation: ref.generationNumber + 1, offset: null });

    if (original.xrefIsStream) {
      const self = { objectNumber: largest + 1, offset: sink.offset };
      const stream = xrefStream(context, entries, trailerEntries(doc.context, largest + 2, original.startxref), self);
      await sink.write(indirectObjectBytes(PDFRef.of(self.objectNumber), stream));
      await sink.writeText(`startxref\n${self.offset}\n%%EOF\n`);
    } else {
      const startxref = sink.offset;
      await sink.writeText(xrefTable(entries, false));
      await sink.writeText(trailerText(context, trailerEntries(doc.context, largest + 1, original.startxref)));
      await sink.writeText(`startxref\n${startxref}\n%%EOF\n`);
    }
  } finally {
    await sink.close();
  }
}
