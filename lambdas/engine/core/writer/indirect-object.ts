/**
 * One indirect object as the bytes a file holds (ISO 32000-1 7.3.10):
 * `12 0 obj`, the object, `endobj`. pdf-lib serializes the object itself
 * (dictionaries, streams with their contents, and the streams its own
 * builders make, whose contents are computed here); the layout around it
 * matches what pdf-lib's own writer produces, so files written either way
 * read the same.
 */
import { PDFName, PDFRawStream, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';

const TAIL = '\nendobj\n\n';

const head = (ref: PDFRef): string => `${ref.objectNumber} ${ref.generationNumber} obj\n`;

export function indirectObjectBytes(ref: PDFRef, object: PDFObject): Uint8Array {
  const h = head(ref);
  const size = object.sizeInBytes();
  const out = Buffer.allocUnsafe(h.length + size + TAIL.length);
  out.write(h, 0, 'latin1');
  object.copyBytesInto(out, h.length);
  out.write(TAIL, h.length + size, 'latin1');
  return out;
}

/** How many bytes indirectObjectBytes writes for the object, without writing them (a writer that lays a file out before writing it). */
export function indirectObjectSize(ref: PDFRef, object: PDFObject): number {
  return head(ref).length + object.sizeInBytes() + TAIL.length;
}

/**
 * Streams that only carry a revision's cross-reference data or other objects:
 * the writer writes their members one by one and a cross-reference of its own,
 * so copying them would only repeat (or contradict) what it writes.
 */
export function isStructuralStream(object: PDFObject): boolean {
  if (!(object instanceof PDFRawStream)) return false;
  const type = object.dict.get(PDFName.of('Type'));
  return type === PDFName.of('XRef') || type === PDFName.of('ObjStm');
}
