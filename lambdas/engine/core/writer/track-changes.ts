/**
 * A change tracker attached to a document's context, right after opening and
 * before anything edits it. With the lazy reader's table (the usual case) an
 * object is observed as it is read from the file, and the changes are judged
 * over the objects held: those never read are unchanged by definition. Any
 * other table is observed whole, now. Deletions are remembered either way.
 */
import type { PDFContext, PDFObject, PDFRef } from '@cantoo/pdf-lib';
import { LazyObjectMap } from '../reader/lazy-objects';
import { ChangeTracker } from './change-tracker';

export function trackChanges(context: PDFContext): ChangeTracker {
  const table = (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects;
  const lazy = table instanceof LazyObjectMap ? table : null;
  const tracker = new ChangeTracker(() => (lazy ? lazy.held() : context.enumerateIndirectObjects()));
  for (const [ref, object] of lazy ? lazy.held() : context.enumerateIndirectObjects()) tracker.observe(ref, object);
  if (lazy) lazy.onLoad = (ref, object) => tracker.observe(ref, object);
  const remove = context.delete.bind(context);
  context.delete = (ref: PDFRef): boolean => {
    tracker.forget(ref);
    return remove(ref);
  };
  return tracker;
}
