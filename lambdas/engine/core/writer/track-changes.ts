/**
 * A change tracker attached to a document's context: every object the
 * context holds now is observed as read, and every deletion is remembered.
 * Attach it right after opening, before anything edits the document.
 */
import type { PDFContext, PDFRef } from '@cantoo/pdf-lib';
import { ChangeTracker } from './change-tracker';

export function trackChanges(context: PDFContext): ChangeTracker {
  const tracker = new ChangeTracker();
  for (const [ref, object] of context.enumerateIndirectObjects()) tracker.observe(ref, object);
  const remove = context.delete.bind(context);
  context.delete = (ref: PDFRef): boolean => {
    tracker.forget(ref);
    return remove(ref);
  };
  return tracker;
}
