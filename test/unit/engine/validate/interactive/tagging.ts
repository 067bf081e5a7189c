/**
 * Tagging annotations in the generated PDF/UA fixtures (pdfuaSpec): the test
 * files of the interactive rules share it.
 */
import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';

/**
 * Tags annotations with one new structure element of the given type, a child of
 * the fixture's Document element (in its namespace), whose kids are object
 * references to the annotations; each annotation gets a StructParent key of the
 * ParentTree pointing back at the element. Returns the element.
 */
export function tagAnnots(d: PDFDocument, type: string, annots: { ref: PDFRef; dict: PDFDict }[], extra: Record<string, unknown> = {}): PDFDict {
  const ctx = d.context;
  const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
  const docRef = root.get(PDFName.of('K')) as PDFRef;
  const docElem = ctx.lookup(docRef) as PDFDict;
  const ns = docElem.get(PDFName.of('NS'));
  const pg = d.getPage(0).ref;
  const kids = annots.map((a) => ctx.obj({ Type: 'OBJR', Obj: a.ref, Pg: pg }));
  const el = ctx.obj({ Type: 'StructElem', S: type, P: docRef, Pg: pg, K: kids, ...(ns ? { NS: ns } : {}), ...extra } as never) as unknown as PDFDict;
  const elRef = ctx.register(el);
  (docElem.lookup(PDFName.of('K')) as PDFArray).push(elRef);
  const parentTree = root.lookup(PDFName.of('ParentTree')) as PDFDict;
  const nums = parentTree.lookup(PDFName.of('Nums')) as PDFArray;
  let next = (root.lookup(PDFName.of('ParentTreeNextKey')) as unknown as { asNumber(): number }).asNumber();
  for (const a of annots) {
    a.dict.set(PDFName.of('StructParent'), ctx.obj(next));
    nums.push(ctx.obj(next));
    nums.push(elRef);
    next++;
  }
  root.set(PDFName.of('ParentTreeNextKey'), ctx.obj(next));
  return el;
}
