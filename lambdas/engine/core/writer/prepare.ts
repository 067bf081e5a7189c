/**
 * What pdf-lib does to a document before any save, whichever writer then
 * writes it: objects its builders left pending (embedded fonts and images)
 * are made, and the Info dictionary and XMP metadata are kept equivalent (as
 * PDF/A requires). No page is added and form appearances are left as they
 * are: a fix decides those itself.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';

interface Preparable {
  prepareForSave(options: { addDefaultPage: boolean; updateFieldAppearances: boolean }): Promise<void>;
}

export async function prepareForSave(doc: PDFDocument): Promise<void> {
  // Private in pdf-lib's types; the same step its save() takes first.
  await (doc as unknown as Preparable).prepareForSave({ addDefaultPage: false, updateFieldAppearances: false });
}
