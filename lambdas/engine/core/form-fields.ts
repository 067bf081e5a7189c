/**
 * The interactive form's field tree (ISO 32000-1 12.7.3): every field
 * dictionary reached from the AcroForm's Fields through Kids, depth first,
 * widgets merged with their field included. A field reached twice (a shared
 * kid, a cycle) is listed once; nesting deeper than MAX_FIELD_DEPTH is not
 * followed (real forms nest a few levels).
 */
import { PDFDict, type PDFContext } from '@cantoo/pdf-lib';
import { getDict, name, resolvedItems } from './pdf-objects';

export const MAX_FIELD_DEPTH = 32;

export function formFieldDicts(context: PDFContext, catalog: PDFDict): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > MAX_FIELD_DEPTH) return;
    seen.add(node);
    out.push(node);
    for (const kid of resolvedItems(context, node.get(name('Kids')))) if (kid instanceof PDFDict) visit(kid, depth + 1);
  };
  for (const f of resolvedItems(context, getDict(catalog, 'AcroForm')?.get(name('Fields')))) if (f instanceof PDFDict) visit(f, 0);
  return out;
}
