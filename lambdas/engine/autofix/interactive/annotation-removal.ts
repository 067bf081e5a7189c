/**
 * Taking annotations out without leaving references to them behind: the
 * page's /Annots array, the structure tree's object references (OBJR, which
 * tagged files use to place links and form fields in the reading order), and,
 * for widgets, the AcroForm field tree. Shared by the annotation, form and
 * attachment fixes.
 */
import { PDFArray, PDFDict, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve, resolvedItems } from '../../core/pdf-objects';

/** Nodes visited at most in a tree walk: far above real files, a guard against loops and hostile nesting. */
const MAX_NODES = 200_000;

/** Removes `removed` annotations from the page's /Annots (deleting the entry when none are left); how many went. */
export function removeFromPage(context: PDFContext, page: PDFDict, removed: ReadonlySet<PDFDict>): number {
  const raw = page.get(name('Annots'));
  const annots = resolve(context, raw);
  if (!(annots instanceof PDFArray)) return 0;
  const kept: PDFObject[] = [];
  let n = 0;
  for (let i = 0; i < annots.size(); i++) {
    const item = annots.get(i);
    const a = resolve(context, item);
    if (a instanceof PDFDict && removed.has(a)) n++;
    else kept.push(item);
  }
  if (n === 0) return 0;
  // A page-private array: an /Annots array shared by several pages (seen in merged files) stays intact for the others.
  if (kept.length === 0) page.delete(name('Annots'));
  else page.set(name('Annots'), context.obj(kept));
  return n;
}

/**
 * Drops structure-tree object references (OBJR) to removed annotations, so no
 * structure element points at an object that is gone; the element itself stays
 * (its other content, if any, is still in the page). Returns how many went.
 */
export function dropStructReferences(doc: PDFDocument, removed: ReadonlySet<PDFDict>): number {
  const context = doc.context;
  const root = getDict(doc.catalog, 'StructTreeRoot');
  if (!root || removed.size === 0) return 0;
  let dropped = 0;
  let visited = 0;
  const seen = new Set<PDFDict>();
  const isRemovedRef = (kid: PDFObject | undefined): boolean => {
    const k = resolve(context, kid);
    if (!(k instanceof PDFDict) || getName(k, 'Type') !== 'OBJR') return false;
    const target = resolve(context, k.get(name('Obj')));
    return target instanceof PDFDict && removed.has(target);
  };
  const visit = (elem: PDFDict): void => {
    if (seen.has(elem) || ++visited > MAX_NODES) return;
    seen.add(elem);
    const raw = elem.get(name('K'));
    const k = resolve(context, raw);
    if (k instanceof PDFArray) {
      const kept: PDFObject[] = [];
      for (let i = 0; i < k.size(); i++) {
        if (isRemovedRef(k.get(i))) dropped++;
        else kept.push(k.get(i));
      }
      if (kept.length !== k.size()) elem.set(name('K'), context.obj(kept));
    } else if (isRemovedRef(raw)) {
      elem.delete(name('K'));
      dropped++;
    }
    for (const kid of resolvedItems(context, elem.get(name('K')))) {
      // Structure elements (not marked-content or object references) are walked further.
      if (kid instanceof PDFDict && getName(kid, 'Type') !== 'MCR' && getName(kid, 'Type') !== 'OBJR') visit(kid);
    }
  };
  visit(root);
  return dropped;
}

/** Every dictionary of the AcroForm field tree: fields and their widget kids. */
export function fieldTreeNodes(context: PDFContext, acroForm: PDFDict | undefined): Set<PDFDict> {
  const nodes = new Set<PDFDict>();
  const walk = (node: PDFDict, depth: number): void => {
    if (nodes.has(node) || depth > 64 || nodes.size > MAX_NODES) return;
    nodes.add(node);
    for (const kid of resolvedItems(context, node.get(name('Kids')))) if (kid instanceof PDFDict) walk(kid, depth + 1);
  };
  for (const f of resolvedItems(context, acroForm?.get(name('Fields')))) if (f instanceof PDFDict) walk(f, 0);
  return nodes;
}

/**
 * Takes removed widgets out of the field tree: from their parents' /Kids, and
 * fields left with neither widgets nor kids from theirs (up to /Fields, and
 * from /CO). When no field is left the AcroForm goes too. Returns the number of
 * fields removed.
 */
export function pruneFields(doc: PDFDocument, removedWidgets: ReadonlySet<PDFDict>): number {
  const context = doc.context;
  const acroForm = getDict(doc.catalog, 'AcroForm');
  if (!acroForm) return 0;
  const gone = new Set<PDFDict>();
  // Post-order: a node is gone when it is a removed widget, or had kids and none is left.
  const prune = (holder: PDFDict, key: string, depth: number): void => {
    const items = resolve(context, holder.get(name(key)));
    if (!(items instanceof PDFArray) || depth > 64) return;
    const kept: PDFObject[] = [];
    for (let i = 0; i < items.size(); i++) {
      const node = resolve(context, items.get(i));
      if (node instanceof PDFDict && !gone.has(node)) {
        const hadKids = resolve(context, node.get(name('Kids'))) instanceof PDFArray;
        if (hadKids) prune(node, 'Kids', depth + 1);
        const empty = hadKids && !(resolve(context, node.get(name('Kids'))) instanceof PDFArray);
        if (removedWidgets.has(node) || empty) {
          gone.add(node);
          continue;
        }
      }
      kept.push(items.get(i));
    }
    if (kept.length === items.size()) return;
    if (kept.length === 0) holder.delete(name(key));
    else holder.set(name(key), context.obj(kept));
  };
  prune(acroForm, 'Fields', 0);
  const co = resolve(context, acroForm.get(name('CO')));
  if (co instanceof PDFArray) {
    const kept: PDFObject[] = [];
    for (let i = 0; i < co.size(); i++) {
      const f = resolve(context, co.get(i));
      if (f instanceof PDFDict && !gone.has(f)) kept.push(co.get(i));
    }
    if (kept.length === 0) acroForm.delete(name('CO'));
    else if (kept.length !== co.size()) acroForm.set(name('CO'), context.obj(kept));
  }
  if (!(resolve(context, acroForm.get(name('Fields'))) instanceof PDFArray)) doc.catalog.delete(name('AcroForm'));
  let fields = 0;
  for (const g of gone) if (g.has(name('T'))) fields++;
  return fields;
}
