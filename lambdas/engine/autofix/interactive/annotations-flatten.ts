/**
 * annotations.flatten: makes annotations part of the page as they print, so
 * the printed result no longer depends on how a RIP treats annotations.
 *
 * "As it prints" (see appearance-placement.ts): an annotation whose Print flag
 * is set and whose Hidden and NoView flags are clear has its normal appearance
 * drawn into the page content, exactly where a reader places it (ISO 32000-1
 * 12.5.5), and is then removed. Per annotation:
 * - prints, with an appearance: drawn, then removed;
 * - never prints (Print clear, or Hidden): removed, nothing drawn — it never
 *   reached paper; this drops comments meant for the screen only;
 * - prints, but its state dictionary has no stream for the current state: a
 *   reader draws nothing either, so removed;
 * - prints, without a normal appearance (or without a usable Rect or BBox):
 *   left in place and counted — a reader may make up an appearance, so what
 *   prints is unknown and we never guess;
 * - print-only (NoView): left in place and counted — page content also shows
 *   on screen, so drawing it would change the screen to keep the print;
 * - NoRotate on a rotated page: left in place and counted (a reader turns its
 *   appearance against the page; we do not reproduce that);
 * - Links are kept (they have no appearance in practice and print nothing);
 *   with `links` they are treated like the others;
 * - Widgets that belong to the AcroForm are left to forms.flatten (removing
 *   them here would leave form fields without widgets); stray widgets outside
 *   any field are flattened here;
 * - Popups are never drawn (a reader draws them as windows, never in print);
 *   one goes when its parent goes.
 * An annotation's /OC (optional content) is kept around its drawing.
 */
import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { readPageBoxes } from '../../core/page-boxes';
import { getDict, getName, name, resolve } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { dropStructReferences, fieldTreeNodes, removeFromPage } from './annotation-removal';
import { flagsOf, NO_ROTATE, normalAppearance, PageDrawer, pageAnnotations, placement, printState } from './appearance-placement';

export function flattenAnnotations(doc: PDFDocument, opts: { links: boolean }): FixOutcome {
  const context = doc.context;
  const formNodes = fieldTreeNodes(context, getDict(doc.catalog, 'AcroForm'));
  const removedAll = new Set<PDFDict>();
  const pages: number[] = [];
  let drawn = 0;
  let dropped = 0;
  const left = { noAppearance: 0, printOnly: 0, noRotate: 0 };

  doc.getPages().forEach((p, i) => {
    const page = p.node;
    const annots = pageAnnotations(context, page);
    if (annots.length === 0) return;
    const rotated = readPageBoxes(context, page).rotation !== 0;
    const drawer = new PageDrawer(doc, page);
    const removed = new Set<PDFDict>();
    const popups: PDFDict[] = [];
    for (const annot of annots) {
      const subtype = getName(annot, 'Subtype');
      if (subtype === 'Popup') {
        popups.push(annot);
        continue;
      }
      if (subtype === 'Link' && !opts.links) continue;
      if (subtype === 'Widget' && formNodes.has(annot)) continue;
      const state = printState(annot);
      if (state === 'never') {
        removed.add(annot);
        dropped++;
        continue;
      }
      if (state === 'print-only') {
        left.printOnly++;
        continue;
      }
      if (rotated && flagsOf(annot) & NO_ROTATE) {
        left.noRotate++;
        continue;
      }
      const ap = normalAppearance(context, annot);
      if (ap.kind === 'empty') {
        removed.add(annot);
        dropped++;
        continue;
      }
      const a = ap.kind === 'stream' ? placement(context, annot, ap.stream) : null;
      if (ap.kind !== 'stream' || !a) {
        left.noAppearance++;
        continue;
      }
      drawer.draw(ap.stream, ap.ref, a, annot.get(name('OC')));
      removed.add(annot);
      drawn++;
    }
    // A popup belongs to its parent: it goes with it, or when it has none (nothing could open it).
    for (const popup of popups) {
      const parent = resolve(context, popup.get(name('Parent')));
      if (!(parent instanceof PDFDict) || removed.has(parent)) removed.add(popup);
    }
    const wrote = drawer.commit();
    const n = removeFromPage(context, page, removed);
    for (const r of removed) removedAll.add(r);
    if (wrote || n > 0) pages.push(i + 1);
  });

  dropStructReferences(doc, removedAll);
  const notes = [
    left.noAppearance && `${left.noAppearance} printing annotation(s) without a usable appearance left in place`,
    left.printOnly && `${left.printOnly} print-only (NoView) annotation(s) left in place`,
    left.noRotate && `${left.noRotate} NoRotate annotation(s) on rotated pages left in place`,
  ].filter((s): s is string => typeof s === 'string');
  const detail = [`${drawn} annotation(s) drawn into the page and removed, ${dropped} that would not print removed, ${removedAll.size - drawn - dropped} popup(s) removed with them`, ...notes].join('; ');
  const count = removedAll.size;
  if (count === 0 && notes.length > 0) return { count, pages: [], detail, skipReason: `Nothing could be flattened: ${notes.join('; ')}.` };
  return { count, pages, detail };
}
