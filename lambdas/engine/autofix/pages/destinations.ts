/**
 * Destinations follow their page into its new user space.
 *
 * An explicit destination ([page /XYZ left top zoom], /FitH top, /FitR l b r t,
 * … ISO 32000-2 12.3.2.2) names a position in the page's user space. When
 * pages.unrotate or pages.scale-to-trim moves the page's drawing through M,
 * a bookmark or link that pointed at a heading would otherwise land elsewhere
 * (or off the page). Every explicit destination of a moved page is rewritten
 * through M wherever the document keeps them: the catalog's /Dests, the /Dests
 * name tree, the outline items, link annotations, the OpenAction, and GoTo
 * actions wherever core/actions.ts finds actions (Next chains and additional
 * actions included).
 *
 * A coordinate given as null ("keep the current one") stays null. When M turns
 * the page a quarter, a lone coordinate would change axis: /FitH's top becomes
 * a left, which /FitH cannot hold, so it becomes null there (the reader keeps
 * its scroll position across, the fit itself is kept). Named destinations that
 * point at another name, remote destinations (GoToR: another file) and
 * structure destinations are left alone.
 */
import { PDFArray, PDFDict, PDFName, PDFNull, PDFNumber, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { inventoryActions, nameTreeLeaves, outlineItems } from '../../core/actions';
import { getDict, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { transformPoint, type Matrix } from './page-transform';

/** Rewrites the explicit destinations of the moved pages; returns how many changed. */
export function transformDestinations(doc: PDFDocument, moved: ReadonlyMap<PDFDict, Matrix>): number {
  if (moved.size === 0) return 0;
  const ctx = doc.context;
  const seen = new Set<PDFObject>();
  let changed = 0;
  const visitDest = (raw: PDFObject | undefined) => {
    const dest = resolve(ctx, raw);
    if (dest instanceof PDFDict) return visitDest(dest.get(name('D'))); // { D: [...] } in /Dests
    if (!(dest instanceof PDFArray) || seen.has(dest)) return;
    seen.add(dest);
    if (rewrite(ctx, dest, moved)) changed++;
  };

  // Catalog /Dests (PDF 1.1) and the /Dests name tree.
  const oldDests = getDict(doc.catalog, 'Dests');
  if (oldDests) for (const [, v] of oldDests.entries()) visitDest(v);
  const tree = getDict(getDict(doc.catalog, 'Names'), 'Dests');
  if (tree) {
    for (const leaf of nameTreeLeaves(ctx, tree)) {
      const entries = resolvedItems(ctx, leaf.get(name('Names')));
      for (let i = 1; i < entries.length; i += 2) visitDest(entries[i]);
    }
  }
  // /Dest of outline items and annotations, and an OpenAction that is a destination itself.
  for (const item of outlineItems(ctx, doc.catalog)) visitDest(item.get(name('Dest')));
  for (const page of doc.getPages()) {
    for (const annot of resolvedItems(ctx, page.node.get(name('Annots')))) if (annot instanceof PDFDict) visitDest(annot.get(name('Dest')));
  }
  const open = resolve(ctx, doc.catalog.get(name('OpenAction')));
  if (open instanceof PDFArray) visitDest(open);
  // GoTo actions wherever actions live (outlines, annotations, OpenAction, additional actions, Next chains).
  for (const site of inventoryActions(doc).sites) if (site.type === 'GoTo') visitDest(site.action.get(name('D')));
  return changed;
}

/** The destination rewritten in place when its page moved; whether it changed. */
function rewrite(ctx: PDFContext, dest: PDFArray, moved: ReadonlyMap<PDFDict, Matrix>): boolean {
  const page = resolve(ctx, dest.get(0));
  const m = page instanceof PDFDict ? moved.get(page) : undefined;
  const kind = resolve(ctx, dest.get(1));
  if (!m || !(kind instanceof PDFName)) return false;
  const num = (i: number): number | null => {
    const v = resolve(ctx, dest.get(i));
    return v instanceof PDFNumber ? v.asNumber() : null;
  };
  const set = (i: number, v: number | null) => {
    if (i < dest.size()) dest.set(i, v === null ? PDFNull : PDFNumber.of(Math.round(v * 1e4) / 1e4));
  };
  // A quarter turn swaps the axes: x' depends on y and y' on x.
  const swapped = Math.abs(m[0]) < 1e-9 && Math.abs(m[3]) < 1e-9;
  switch (kind.asString().slice(1)) {
    case 'XYZ': {
      const [left, top] = [num(2), num(3)];
      if (left !== null && top !== null) {
        const [l, t] = transformPoint(m, left, top);
        set(2, l);
        set(3, t);
      } else if (!swapped) {
        set(2, left === null ? null : transformPoint(m, left, 0)[0]);
        set(3, top === null ? null : transformPoint(m, 0, top)[1]);
      } else {
        set(2, null);
        set(3, null);
      }
      return true;
    }
    case 'FitH':
    case 'FitBH': {
      const top = num(2);
      set(2, top === null || swapped ? null : transformPoint(m, 0, top)[1]);
      return true;
    }
    case 'FitV':
    case 'FitBV': {
      const left = num(2);
      set(2, left === null || swapped ? null : transformPoint(m, left, 0)[0]);
      return true;
    }
    case 'FitR': {
      const [l, b, r, t] = [num(2), num(3), num(4), num(5)];
      if (l === null || b === null || r === null || t === null) return false;
      const [x0, y0] = transformPoint(m, l, b);
      const [x1, y1] = transformPoint(m, r, t);
      set(2, Math.min(x0, x1));
      set(3, Math.min(y0, y1));
      set(4, Math.max(x0, x1));
      set(5, Math.max(y0, y1));
      return true;
    }
    default:
      return false; // /Fit, /FitB: the whole page, wherever it is
  }
}
