/**
 * Inheritable page attributes moved from the page tree onto the pages
 * (ISO 32000-1 7.7.3.4: Resources, MediaBox, CropBox and Rotate may be set on
 * a Pages node and inherited by every page below it). A linearized file's
 * hint tables count, for each page, the objects that page uses; an attribute
 * inherited from a Pages node would make that node's objects the page's too,
 * and the page tree belongs at the end of the file (Annex F.3.9). So the
 * linearized writer first gives every page its attributes as they are
 * inherited, and leaves the Pages nodes without them, as qpdf does: what each
 * page shows is unchanged.
 *
 * A dictionary held directly by a Pages node (Resources, usually) is made an
 * indirect object once and referred to by each page, rather than copied into
 * every page; arrays and numbers are copied. A page lacking /Type /Page gets
 * it (the type is required, and readers that walk a linearized file's objects
 * tell pages from other dictionaries by it).
 */
import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((k) => PDFName.of(k));
const KIDS = PDFName.of('Kids');
const TYPE = PDFName.of('Type');
const PAGES = PDFName.of('Pages');
const PAGE = PDFName.of('Page');

export function pushInheritedAttributesToPages(doc: PDFDocument): void {
  const { context } = doc;
  const root = doc.catalog.lookup(PAGES);
  if (!(root instanceof PDFDict)) return;
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, inherited: ReadonlyMap<PDFName, PDFObject>): void => {
    // A page tree that loops back on itself is visited once.
    if (seen.has(node)) return;
    seen.add(node);
    if (node.get(TYPE) !== PAGES) {
      if (node.get(TYPE) !== PAGE) node.set(TYPE, PAGE);
      for (const [key, value] of inherited) if (!node.has(key)) node.set(key, value instanceof PDFArray ? value.clone(context) : value);
      return;
    }
    const here = new Map(inherited);
    for (const key of INHERITABLE) {
      const value = node.get(key);
      if (value === undefined) continue;
      here.set(key, value instanceof PDFDict ? context.register(value) : value);
      node.delete(key);
    }
    const kids = node.lookup(KIDS);
    if (!(kids instanceof PDFArray)) return;
    for (const kid of kids.asArray()) {
      const dict = context.lookup(kid);
      if (dict instanceof PDFDict) visit(dict, here);
    }
  };
  visit(root, new Map());
}
