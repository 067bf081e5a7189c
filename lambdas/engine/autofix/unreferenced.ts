/**
 * Objects nothing refers to any more, removed before the fixed file is saved.
 * pdf-lib writes every object of its context, reachable or not, so without this
 * a removed attachment, a removed script or a replaced content stream would
 * still be in the file: invisible to readers, but there for anyone who looks
 * (and counted in the file's size). Reachability starts at the trailer (Root,
 * Info; Encrypt and ID are kept by pdf-lib itself) and follows every reference
 * in dictionaries, arrays and stream dictionaries.
 */
import { PDFArray, PDFDict, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

/** Removes unreachable indirect objects; returns how many. */
export function dropUnreferencedObjects(doc: PDFDocument): number {
  const { context } = doc;
  const reached = new Set<string>();
  const pending: PDFObject[] = [];
  const roots = [context.trailerInfo.Root, context.trailerInfo.Info, context.trailerInfo.Encrypt];
  for (const r of roots) if (r) pending.push(r as PDFObject);
  while (pending.length > 0) {
    const obj = pending.pop()!;
    if (obj instanceof PDFRef) {
      const key = obj.toString();
      if (reached.has(key)) continue;
      reached.add(key);
      const target = context.lookup(obj);
      if (target) pending.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, v] of obj.entries()) pending.push(v);
    } else if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) pending.push(obj.get(i));
    } else if (obj instanceof PDFStream) {
      pending.push(obj.dict);
    }
  }
  let dropped = 0;
  let largest = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (reached.has(ref.toString())) {
      largest = Math.max(largest, ref.objectNumber);
      continue;
    }
    context.delete(ref);
    dropped++;
  }
  // The trailer's /Size is one more than this; left at an object now gone, qpdf warns about the count.
  if (dropped > 0) context.largestObjectNumber = largest;
  return dropped;
}
