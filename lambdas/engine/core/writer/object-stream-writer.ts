/**
 * A document written whole with object streams (ISO 32000-1 7.5.7): every
 * object that may be packed (not a stream, generation 0, parsed) goes into a
 * Flate-compressed object stream of up to OBJECTS_PER_STREAM objects, streams
 * are written as they are, and a compressed cross-reference stream (7.5.8)
 * lists both. Dictionaries and arrays, which a classic file stores as plain
 * text with a 20-byte table entry each, then cost a fraction of that: this is
 * what `qpdf --object-streams=generate` does.
 *
 * Like the whole-file writer it holds one object (or one batch of small
 * objects) at a time, and streams that only carried the source's
 * cross-reference data or packed objects are not copied. Object streams need
 * PDF 1.5: the caller raises the header first when it is lower (and does not
 * use this writer for PDF/A-1 or PDF/X-1a/X-3 files, which forbid them).
 * Documents reach it decrypted: no Encrypt is written.
 */
import { deflateSync } from 'node:zlib';
import { PDFInvalidObject, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { prepareForSave } from './prepare';
import { trailerEntries, xrefStream, type XrefEntry } from './cross-reference';
import { FileSink } from './file-sink';
import { indirectObjectBytes, isStructuralStream } from './indirect-object';
import { BINARY_COMMENT } from './whole-file-writer';

/** qpdf packs 100 objects per stream; a reader must inflate a whole stream to reach one of them. */
export const OBJECTS_PER_STREAM = 100;

export interface ObjectStreamOptions {
  /** zlib level of the object streams and the cross-reference stream (1–9). */
  flateLevel: number;
}

export async function writePdfWithObjectStreams(doc: PDFDocument, outPath: string, options: ObjectStreamOptions): Promise<void> {
  await prepareForSave(doc);
  const { context } = doc;
  const objects = context.enumerateIndirectObjects().filter(([, o]) => !isStructuralStream(o));
  let nextNumber = objects.reduce((m, [ref]) => Math.max(m, ref.objectNumber), 0) + 1;
  const sink = await FileSink.create(outPath);
  try {
    await sink.writeText(`%PDF-${context.header.getVersionString()}\n`);
    await sink.write(BINARY_COMMENT);
    // The head of the free list, as a whole file's table starts.
    const entries: XrefEntry[] = [{ objectNumber: 0, generation: 65535, offset: null }];
    let batch: [PDFRef, PDFObject][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const streamNumber = nextNumber++;
      batch.forEach(([ref], index) => entries.push({ objectNumber: ref.objectNumber, generation: 0, offset: null, inStream: { streamNumber, index } }));
      entries.push({ objectNumber: streamNumber, generation: 0, offset: sink.offset });
      await sink.write(indirectObjectBytes(PDFRef.of(streamNumber), objectStream(context, batch, options.flateLevel)));
      batch = [];
    };
    for (const [ref, object] of objects) {
      if (packable(context, ref, object)) {
        batch.push([ref, object]);
        if (batch.length >= OBJECTS_PER_STREAM) await flush();
        continue;
      }
      entries.push({ objectNumber: ref.objectNumber, generation: ref.generationNumber, offset: sink.offset });
      await sink.write(indirectObjectBytes(ref, object));
    }
    await flush();
    const self = { objectNumber: nextNumber, offset: sink.offset };
    const xref = xrefStream(context, entries, trailerEntries(context, nextNumber + 1), self, options.flateLevel);
    await sink.write(indirectObjectBytes(PDFRef.of(self.objectNumber), xref));
    await sink.writeText(`startxref\n${self.offset}\n%%EOF\n`);
  } finally {
    await sink.close();
  }
}

/**
 * What 7.5.7 lets an object stream hold: no stream, nothing of another
 * generation, not the encryption dictionary. Objects pdf-lib could not parse
 * are written back byte for byte on their own, as the whole-file writer does.
 */
export function packable(context: PDFContext, ref: PDFRef, object: PDFObject): boolean {
  if (object instanceof PDFStream || object instanceof PDFInvalidObject) return false;
  if (ref.generationNumber !== 0) return false;
  return context.trailerInfo.Encrypt !== ref;
}

/** An object stream: pairs of object number and offset, then the objects, compressed. */
export function objectStream(context: PDFContext, batch: [PDFRef, PDFObject][], level: number): PDFRawStream {
  const bodies: Uint8Array[] = [];
  const offsets: string[] = [];
  let offset = 0;
  for (const [ref, object] of batch) {
    const body = Buffer.alloc(object.sizeInBytes() + 1);
    object.copyBytesInto(body, 0);
    body[body.length - 1] = 0x0a;
    offsets.push(`${ref.objectNumber} ${offset}`);
    bodies.push(body);
    offset += body.length;
  }
  const head = Buffer.from(`${offsets.join(' ')}\n`, 'latin1');
  const data = deflateSync(Buffer.concat([head, ...bodies]), { level });
  const dict = context.obj({ Type: 'ObjStm', N: batch.length, First: head.length, Filter: 'FlateDecode' });
  dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
  return PDFRawStream.of(dict, data);
}
