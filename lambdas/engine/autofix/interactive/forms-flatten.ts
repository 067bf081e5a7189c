/**
 * forms.flatten: turns the interactive form into plain page content. Each
 * widget that prints (Print set, Hidden and NoView clear) has its existing
 * normal appearance — the /AS state for check boxes and radio buttons — drawn
 * into the page, placed as annotations.flatten places appearances (one shared
 * module); then every widget, the AcroForm dictionary (with any XFA form in
 * it) and the usage-rights signatures that a changed form invalidates go.
 *
 * Nothing is regenerated: a field shows what its appearance stream shows. When
 * the form asks readers to rebuild appearances (NeedAppearances) or a printing
 * widget has none, the fix still proceeds and says so in its detail, because
 * the value then printed may differ from what a reader displayed.
 *
 * Print-only widgets (NoView) and widgets that never print are removed without
 * being drawn: the form goes entirely, and page content cannot print without
 * showing on screen. The detail counts them.
 *
 * Appearance streams without resources of their own once borrowed the form's
 * default resources (/DR); those are attached to the stream before the
 * AcroForm goes, so its text keeps its fonts.
 */
import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { getBool, getDict, getName, has, name } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { dropStructReferences, fieldTreeNodes, removeFromPage } from './annotation-removal';
import { normalAppearance, PageDrawer, pageAnnotations, placement, printState } from './appearance-placement';

export function flattenForms(doc: PDFDocument): FixOutcome {
  const context = doc.context;
  const catalog = doc.catalog;
  const acroForm = getDict(catalog, 'AcroForm');
  const formNodes = fieldTreeNodes(context, acroForm);
  const needAppearances = getBool(acroForm, 'NeedAppearances') === true;
  const hasXfa = has(acroForm, 'XFA');
  const dr = acroForm?.get(name('DR'));
  const removedAll = new Set<PDFDict>();
  const pages: number[] = [];
  let drawn = 0;
  let noAppearance = 0;
  let printOnly = 0;

  doc.getPages().forEach((p, i) => {
    const page = p.node;
    const drawer = new PageDrawer(doc, page);
    const removed = new Set<PDFDict>();
    for (const annot of pageAnnotations(context, page)) {
      // Every widget on a page goes: those of the form and stray ones alike.
      if (getName(annot, 'Subtype') !== 'Widget' && !formNodes.has(annot)) continue;
      removed.add(annot);
      const state = printState(annot);
      if (state !== 'prints') {
        if (state === 'print-only') printOnly++;
        continue;
      }
      const ap = normalAppearance(context, annot);
      const a = ap.kind === 'stream' ? placement(context, annot, ap.stream) : null;
      if (ap.kind === 'missing' || (ap.kind === 'stream' && !a)) noAppearance++;
      if (ap.kind !== 'stream' || !a) continue;
      if (!ap.stream.dict.has(name('Resources')) && dr !== undefined) ap.stream.dict.set(name('Resources'), dr);
      drawer.draw(ap.stream, ap.ref, a, annot.get(name('OC')));
      drawn++;
    }
    // Popups of removed widgets (rare, but allowed) go with them.
    for (const annot of pageAnnotations(context, page)) {
      const parent = annot.lookup(name('Parent'));
      if (getName(annot, 'Subtype') === 'Popup' && parent instanceof PDFDict && removed.has(parent)) removed.add(annot);
    }
    const wrote = drawer.commit();
    const n = removeFromPage(context, page, removed);
    for (const r of removed) removedAll.add(r);
    if (wrote || n > 0) pages.push(i + 1);
  });

  let formRemoved = false;
  if (acroForm) {
    catalog.delete(name('AcroForm'));
    formRemoved = true;
  }
  // Dynamic XFA forms ask readers to render the XFA instead of the pages; with the XFA gone the pages are all there is.
  if (catalog.has(name('NeedsRendering'))) catalog.delete(name('NeedsRendering'));
  // Usage-rights signatures (UR, UR3) cover the form; a changed form makes readers report them broken.
  const perms = getDict(catalog, 'Perms');
  if (perms) {
    perms.delete(name('UR'));
    perms.delete(name('UR3'));
    if (perms.keys().length === 0) catalog.delete(name('Perms'));
  }
  dropStructReferences(doc, removedAll);

  const count = removedAll.size + (formRemoved && removedAll.size === 0 ? 1 : 0);
  if (count === 0) return { count: 0, pages: [], detail: 'no form' };
  const notes = [
    `${drawn} widget appearance(s) drawn into the page, ${removedAll.size} widget(s) removed${formRemoved ? ', form dictionary removed' : ''}${hasXfa ? ' (with its XFA form)' : ''}`,
    needAppearances && 'the form asked readers to regenerate appearances (NeedAppearances); the existing ones were drawn and may differ from what a reader showed',
    noAppearance > 0 && `${noAppearance} printing widget(s) had no usable appearance and were removed without being drawn`,
    printOnly > 0 && `${printOnly} print-only (NoView) widget(s) removed without being drawn`,
  ].filter((s): s is string => typeof s === 'string');
  return { count, pages, detail: notes.join('; ') };
}
