/**
 * actions.remove: takes out every action that runs JavaScript or launches a
 * program — document JavaScript, the OpenAction, additional actions of the
 * catalog, pages, annotations and form fields, annotation and bookmark
 * actions, and such actions chained through Next. With `uri`, web links (URI
 * actions) go too. Other actions (page navigation) stay.
 */
import { PDFArray, type PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions } from '../core/actions';
import { getDict, name } from '../core/pdf-objects';
import type { FixOutcome } from './fix';

const REMOVED_TYPES = ['JavaScript', 'Launch'];

export function removeActions(doc: PDFDocument, opts: { uri?: boolean } = {}): FixOutcome {
  const removed = new Set(opts.uri ? [...REMOVED_TYPES, 'URI'] : REMOVED_TYPES);
  const pages = new Set<number>();
  let count = 0;
  // Each site detaches itself from where it is referenced, so removing a parent
  // and then its chained child is harmless; both are counted, as both existed.
  for (const site of inventoryActions(doc).sites) {
    if (!removed.has(site.type)) continue;
    site.remove();
    count++;
    if (site.page !== null) pages.add(site.page);
  }
  // A JavaScript name tree left without entries goes too.
  const names = getDict(doc.catalog, 'Names');
  const js = getDict(names, 'JavaScript');
  const entries = js?.lookup(name('Names'));
  if (names && js && !js.has(name('Kids')) && (entries === undefined || (entries instanceof PDFArray && entries.size() === 0))) {
    names.delete(name('JavaScript'));
  }
  return { count, pages: [...pages].sort((a, b) => a - b), detail: opts.uri ? 'JavaScript, launch and URI actions removed' : 'JavaScript and launch actions removed' };
}
