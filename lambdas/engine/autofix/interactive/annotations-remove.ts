/**
 * annotations.remove: deletes annotations outright — comments, stamps,
 * highlights, attachments' icons and whatever else sits on the pages —
 * without drawing anything, for files whose annotations are review notes
 * that must not print.
 *
 * - Links stay unless `keepLinks` is false: they print nothing and keep the
 *   file navigable.
 * - Widgets of form fields stay unless `forms` is true (forms.flatten is the
 *   fix for forms: it keeps what the fields show). With `forms`, the widgets go
 *   and the field tree is pruned to match, so no field points at a removed
 *   widget; a form left without fields goes entirely.
 * - Popups go with their parent (and when they have none).
 * - Structure-tree references (OBJR) to removed annotations go as well.
 */
import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { dropStructReferences, fieldTreeNodes, pruneFields, removeFromPage } from './annotation-removal';
import { pageAnnotations } from './appearance-placement';

export function removeAnnotations(doc: PDFDocument, opts: { keepLinks: boolean; forms: boolean }): FixOutcome {
  const context = doc.context;
  const formNodes = fieldTreeNodes(context, getDict(doc.catalog, 'AcroForm'));
  const removedAll = new Set<PDFDict>();
  const widgets = new Set<PDFDict>();
  const pages: number[] = [];

  doc.getPages().forEach((p, i) => {
    const page = p.node;
    const removed = new Set<PDFDict>();
    const popups: PDFDict[] = [];
    for (const annot of pageAnnotations(context, page)) {
      const subtype = getName(annot, 'Subtype');
      if (subtype === 'Popup') popups.push(annot);
      else if (subtype === 'Link' && opts.keepLinks) continue;
      else if (subtype === 'Widget' || formNodes.has(annot)) {
        // A stray widget (in no field) is just an annotation; a form's widget only with `forms`.
        if (!formNodes.has(annot) || opts.forms) {
          removed.add(annot);
          widgets.add(annot);
        }
      } else removed.add(annot);
    }
    for (const popup of popups) {
      const parent = resolve(context, popup.get(name('Parent')));
      if (!(parent instanceof PDFDict) || removed.has(parent)) removed.add(popup);
    }
    if (removeFromPage(context, page, removed) > 0) pages.push(i + 1);
    for (const r of removed) removedAll.add(r);
  });

  const fields = opts.forms ? pruneFields(doc, widgets) : 0;
  const objr = dropStructReferences(doc, removedAll);
  const detail = [
    `${removedAll.size} annotation(s) removed`,
    fields > 0 && `${fields} form field(s) left without widgets removed`,
    objr > 0 && `${objr} structure reference(s) to them removed`,
  ].filter(Boolean).join('; ');
  return { count: removedAll.size, pages, detail };
}
