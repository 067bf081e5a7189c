/**
 * Every action a PDF can run (ISO 32000-1 12.6): the document JavaScript name
 * tree, the OpenAction, additional-actions (AA) dictionaries of the catalog,
 * pages, annotations and form fields, annotation and outline-item actions, and
 * the Next chains behind any of them. Preflight reports them, PDF/A rules judge
 * them by type, and autofix removes the dangerous ones through `remove()`.
 */
import { PDFArray, PDFDict, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve, resolvedItems } from './pdf-objects';

export type ActionLocation =
  | 'document-javascript'
  | 'open-action'
  | 'document-additional-action'
  | 'page-additional-action'
  | 'annotation-action'
  | 'annotation-additional-action'
  | 'field-additional-action'
  | 'outline-action';

export interface ActionSite {
  location: ActionLocation;
  /** 1-based page for page and annotation actions. */
  page: number | null;
  /** The action type (S): JavaScript, Launch, URI, GoTo… */
  type: string;
  action: PDFDict;
  /** The trigger key inside an AA dictionary (O, C, WC, K…). */
  trigger: string | null;
  /** Annotation subtype for annotation actions (Widget, Link…). */
  annotationSubtype: string | null;
  /** True when this action is reached through another action's Next. */
  chained: boolean;
  /** Detaches this action (and its own Next chain) from where it is referenced. */
  remove(): void;
}

/** Where an additional-actions dictionary sits, for the rules that forbid AA outright. */
export interface AdditionalActionsHolder {
  location: 'catalog' | 'page' | 'annotation' | 'field';
  page: number | null;
  annotationSubtype: string | null;
  triggers: string[];
}

export interface ActionInventory {
  sites: ActionSite[];
  additionalActions: AdditionalActionsHolder[];
}

/** Outline items visited at most; bookmark trees of real files stay far below. */
const MAX_OUTLINE_ITEMS = 100_000;

export function inventoryActions(doc: PDFDocument): ActionInventory {
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const sites: ActionSite[] = [];
  const holders: AdditionalActionsHolder[] = [];
  // An action shared by several places is listed once per place (each needs its
  // own detach); the per-chain set only stops Next cycles.
  const addAction = (
    obj: PDFObject | undefined,
    where: Omit<ActionSite, 'type' | 'action' | 'remove' | 'chained'>,
    detach: () => void,
    chain: Set<PDFDict> = new Set(),
  ) => {
    const action = resolve(ctx, obj);
    if (!(action instanceof PDFDict) || chain.has(action)) return;
    chain.add(action);
    sites.push({ ...where, type: getName(action, 'S') ?? 'Unknown', action, chained: chain.size > 1, remove: detach });
    // Next: one action or an array of them, each run after this one.
    const next = resolve(ctx, action.get(name('Next')));
    if (next instanceof PDFDict) addAction(next, where, () => action.delete(name('Next')), chain);
    else if (next instanceof PDFArray) {
      for (const item of resolvedItems(ctx, next)) {
        addAction(item, where, () => removeFromArray(ctx, action, 'Next', item), chain);
      }
    }
  };

  const addAdditional = (holder: PDFDict, location: AdditionalActionsHolder['location'], page: number | null, annotationSubtype: string | null, siteLocation: ActionLocation) => {
    const aa = getDict(holder, 'AA');
    if (!aa) return;
    holders.push({ location, page, annotationSubtype, triggers: aa.keys().map((k) => k.decodeText()) });
    for (const [key, value] of aa.entries()) {
      addAction(value, { location: siteLocation, page, trigger: key.decodeText(), annotationSubtype }, () => {
        aa.delete(key);
        if (aa.keys().length === 0) holder.delete(name('AA'));
      });
    }
  };

  // Document JavaScript: a name tree of JavaScript actions.
  const jsTree = getDict(getDict(catalog, 'Names'), 'JavaScript');
  if (jsTree) {
    for (const leaf of nameTreeLeaves(ctx, jsTree)) {
      const names = getArrayOf(leaf, 'Names');
      if (!names) continue;
      for (let i = 1; i < names.size(); i += 2) {
        const value = resolve(ctx, names.get(i));
        addAction(value, { location: 'document-javascript', page: null, trigger: null, annotationSubtype: null }, () => {
          const at = indexOfResolved(ctx, names, value);
          if (at > 0) {
            names.remove(at);
            names.remove(at - 1);
          }
        });
      }
    }
  }

  const open = resolve(ctx, catalog.get(name('OpenAction')));
  if (open instanceof PDFDict) {
    addAction(open, { location: 'open-action', page: null, trigger: null, annotationSubtype: null }, () => catalog.delete(name('OpenAction')));
  }
  addAdditional(catalog, 'catalog', null, null, 'document-additional-action');

  const seenAnnots = new Set<PDFDict>();
  doc.getPages().forEach((page, i) => {
    const pageNo = i + 1;
    addAdditional(page.node, 'page', pageNo, null, 'page-additional-action');
    for (const annot of resolvedItems(ctx, page.node.get(name('Annots')))) {
      if (!(annot instanceof PDFDict) || seenAnnots.has(annot)) continue;
      seenAnnots.add(annot);
      const subtype = getName(annot, 'Subtype') ?? null;
      addAction(annot.get(name('A')), { location: 'annotation-action', page: pageNo, trigger: null, annotationSubtype: subtype }, () => annot.delete(name('A')));
      addAdditional(annot, 'annotation', pageNo, subtype, 'annotation-additional-action');
    }
  });

  // Form fields not already seen as (merged) widget annotations.
  for (const field of fieldDicts(ctx, catalog)) {
    if (seenAnnots.has(field)) continue;
    addAdditional(field, 'field', null, null, 'field-additional-action');
  }

  for (const item of outlineItems(ctx, catalog)) {
    addAction(item.get(name('A')), { location: 'outline-action', page: null, trigger: null, annotationSubtype: null }, () => item.delete(name('A')));
  }

  return { sites, additionalActions: holders };
}

function getArrayOf(dict: PDFDict, key: string): PDFArray | undefined {
  const v = dict.lookup(name(key));
  return v instanceof PDFArray ? v : undefined;
}

function indexOfResolved(ctx: PDFContext, arr: PDFArray, target: PDFObject | undefined): number {
  for (let i = 0; i < arr.size(); i++) if (resolve(ctx, arr.get(i)) === target) return i;
  return -1;
}

function removeFromArray(ctx: PDFContext, holder: PDFDict, key: string, target: PDFObject): void {
  const arr = getArrayOf(holder, key);
  if (!arr) return;
  const at = indexOfResolved(ctx, arr, target);
  if (at >= 0) arr.remove(at);
  if (arr.size() === 0) holder.delete(name(key));
}

/** Leaf nodes (with Names) of a name tree, through Kids, with a cycle guard. */
export function nameTreeLeaves(ctx: PDFContext, root: PDFDict): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > 32) return;
    seen.add(node);
    if (node.has(name('Names'))) out.push(node);
    for (const kid of resolvedItems(ctx, node.get(name('Kids')))) if (kid instanceof PDFDict) visit(kid, depth + 1);
  };
  visit(root, 0);
  return out;
}

/** Every dictionary of the AcroForm field tree. */
function fieldDicts(ctx: PDFContext, catalog: PDFDict): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > 32) return;
    seen.add(node);
    out.push(node);
    for (const kid of resolvedItems(ctx, node.get(name('Kids')))) if (kid instanceof PDFDict) visit(kid, depth + 1);
  };
  for (const f of resolvedItems(ctx, getDict(catalog, 'AcroForm')?.get(name('Fields')))) if (f instanceof PDFDict) visit(f, 0);
  return out;
}

/** Outline (bookmark) items, depth first. */
export function outlineItems(ctx: PDFContext, catalog: PDFDict): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visitSiblings = (first: PDFObject | undefined) => {
    let item = resolve(ctx, first);
    while (item instanceof PDFDict && !seen.has(item) && out.length < MAX_OUTLINE_ITEMS) {
      seen.add(item);
      out.push(item);
      visitSiblings(item.get(name('First')));
      item = resolve(ctx, item.get(name('Next')));
    }
  };
  visitSiblings(getDict(catalog, 'Outlines')?.get(name('First')));
  return out;
}
