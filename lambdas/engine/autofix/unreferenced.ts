/**
 * Objects nothing refers to any more, removed before the fixed file is saved.
 * pdf-lib writes every object of its context, reachable or not, so without this
 * a removed attachment, a removed script or a replaced content stream would
 * still be in the file: invisible to readers, but there for anyone who looks
 * (and counted in the file's size). Reachability starts at the trailer (Root,
 * Info; Encrypt and ID are kept by pdf-lib itself) and follows every reference
 * in dictionaries, arrays and stream dictionaries.
 */
import { PDFArray, PDFDict, PDFInvalidObject, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

/** The references no chain of references from the trailer reaches. */
export function unreferencedRefs(doc: PDFDocument): PDFRef[] {
  const { context } = doc;
  const reached = new Set<PDFRef>();
  const pending: PDFObject[] = [];
  const roots = [context.trailerInfo.Root, context.trailerInfo.Info, context.trailerInfo.Encrypt];
  for (const r of roots) if (r) pending.push(r as PDFObject);
  while (pending.length > 0) {
    const obj = pending.pop()!;
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      const target = context.lookup(obj);
      if (target) pending.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, v] of obj.entries()) pending.push(v);
    } else if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) pending.push(obj.get(i));
    } else if (obj instanceof PDFStream) {
      pending.push(obj.dict);
    } else if (obj instanceof PDFInvalidObject) {
      // An object pdf-lib could not parse is written back byte for byte; the
      // references in its bytes still hold (issue11549_reduced: the font
      // dictionaries are such objects, and dropping what they point at lost the text).
      for (const ref of referencesIn(obj)) pending.push(ref);
    }
  }
  return context.enumerateIndirectObjects().map(([ref]) => ref).filter((ref) => !reached.has(ref));
}

/** Removes unreachable indirect objects; returns how many. */
export function dropUnreferencedObjects(doc: PDFDocument): number {
  const { context } = doc;
  const dropped = new Set(unreferencedRefs(doc));
  for (const ref of dropped) context.delete(ref);
  if (dropped.size > 0) {
    // The trailer's /Size is one more than this; left at an object now gone, qpdf warns about the count.
    context.largestObjectNumber = context.enumerateIndirectObjects().reduce((m, [ref]) => Math.max(m, ref.objectNumber), 0);
  }
  return dropped.size;
}

/** "12 0 R" references written in an unparsed object's bytes. */
function referencesIn(obj: PDFInvalidObject): PDFRef[] {
  const bytes = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(bytes, 0);
  const text = Buffer.from(bytes).toString('latin1');
  return [...text.matchAll(/(?<![\d.])(\d+)\s+(\d+)\s+R(?![A-Za-z0-9])/g)].map((m) => PDFRef.of(Number(m[1]), Number(m[2])));
}
