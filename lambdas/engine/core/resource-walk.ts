/**
 * Resource dictionaries reachable from each page (ISO 32000-1 7.8.3): the page's
 * own (inherited) resources, those of the form XObjects, tiling patterns and
 * Type 3 fonts they name, and those of annotation appearance streams —
 * recursively, with a cycle guard. Checks that look at declared resources
 * (fonts, graphics states, XObjects) iterate over this instead of each writing
 * its own traversal.
 */
import { PDFDict, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { appearanceStreams, inheritedResources } from './page-content';
import { getDict, getName, resolve } from './pdf-objects';

/** Resource dictionary → the 1-based pages that reach it. */
export type ResourceMap = Map<PDFDict, Set<number>>;

export function resourcesByPage(doc: PDFDocument): ResourceMap {
  const context = doc.context;
  const memo = new Map<PDFDict, Set<PDFDict>>();
  const out: ResourceMap = new Map();
  doc.getPages().forEach((page, i) => {
    const roots: (PDFDict | undefined)[] = [inheritedResources(page.node)];
    for (const ap of appearanceStreams(context, page.node)) roots.push(getDict(ap.dict, 'Resources'));
    for (const root of roots) {
      if (!root) continue;
      for (const r of reachable(context, root, memo, new Set())) {
        const pages = out.get(r) ?? new Set<number>();
        pages.add(i + 1);
        out.set(r, pages);
      }
    }
  });
  return out;
}

/** Objects of one category across all reachable resources, with the pages that reach them. */
export function resourceEntries(context: PDFContext, map: ResourceMap, category: 'Font' | 'ExtGState' | 'XObject' | 'ColorSpace' | 'Shading' | 'Pattern'): Map<PDFDict | PDFStream, Set<number>> {
  const out = new Map<PDFDict | PDFStream, Set<number>>();
  for (const [resources, pages] of map) {
    for (const [, v] of getDict(resources, category)?.entries() ?? []) {
      const obj = resolve(context, v);
      if (!(obj instanceof PDFDict) && !(obj instanceof PDFStream)) continue;
      const set = out.get(obj) ?? new Set<number>();
      for (const p of pages) set.add(p);
      out.set(obj, set);
    }
  }
  return out;
}

function reachable(context: PDFContext, resources: PDFDict, memo: Map<PDFDict, Set<PDFDict>>, active: Set<PDFDict>): Set<PDFDict> {
  const known = memo.get(resources);
  if (known) return known;
  const found = new Set<PDFDict>([resources]);
  if (active.has(resources)) return found;
  active.add(resources);
  const nested = (r: PDFDict | undefined) => {
    if (r) for (const d of reachable(context, r, memo, active)) found.add(d);
  };
  for (const [, v] of getDict(resources, 'XObject')?.entries() ?? []) {
    const xo = resolve(context, v);
    if (xo instanceof PDFStream && getName(xo.dict, 'Subtype') === 'Form') nested(getDict(xo.dict, 'Resources'));
  }
  for (const [, v] of getDict(resources, 'Pattern')?.entries() ?? []) {
    const p = resolve(context, v);
    if (p instanceof PDFStream) nested(getDict(p.dict, 'Resources'));
  }
  for (const [, v] of getDict(resources, 'Font')?.entries() ?? []) {
    const f = resolve(context, v);
    if (f instanceof PDFDict && getName(f, 'Subtype') === 'Type3') nested(getDict(f, 'Resources'));
  }
  active.delete(resources);
  memo.set(resources, found);
  return found;
}
