/**
 * pages.pad-to-multiple: appends blank pages until the page count is a
 * multiple of `multiple` (default 4): booklets are printed on sheets of four
 * pages, and an imposition that finds 13 pages either fails or adds blanks in
 * places nobody chose. Added at the end, they are where a reader expects them.
 *
 * Each blank page takes the last page's geometry: its MediaBox, CropBox,
 * BleedBox, TrimBox and ArtBox as stated (inherited ones written out),
 * /Rotate and /UserUnit, so the pages-of-one-size check stays quiet and
 * the imposition sees one format. A blank page has empty resources and no
 * content.
 *
 * Preflight's document.page-count checks the ordered range (min/max), which
 * padding does not aim at, so this fix resolves no check.
 */
import { PDFNumber, PDFPage, type PDFDocument } from '@cantoo/pdf-lib';
import { inheritedAttribute, readPageBoxes, setBox, type BoxName } from '../../core/page-boxes';
import { getNumber, name } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';

const BOXES: BoxName[] = ['CropBox', 'BleedBox', 'TrimBox', 'ArtBox'];

export function padToMultiple(doc: PDFDocument, params: { multiple: number }): FixOutcome {
  const multiple = Math.max(1, Math.round(params.multiple));
  const count = doc.getPageCount();
  const missing = count === 0 ? 0 : (multiple - (count % multiple)) % multiple;
  const detail = 'blank pages appended';
  if (missing === 0) return { count: 0, pages: [], detail, ...(count === 0 ? { skipReason: 'The document has no pages to pad.' } : {}) };

  const context = doc.context;
  const last = doc.getPage(count - 1).node;
  const boxes = readPageBoxes(context, last);
  const rotate = inheritedAttribute(last, 'Rotate');
  const userUnit = getNumber(last, 'UserUnit');
  const pages: number[] = [];
  for (let n = 0; n < missing; n++) {
    const page = PDFPage.create(doc);
    const node = page.node;
    setBox(context, node, 'MediaBox', boxes.media);
    for (const key of BOXES) {
      const r = boxes.declared[key];
      if (r) setBox(context, node, key, r);
    }
    if (rotate instanceof PDFNumber) node.set(name('Rotate'), rotate);
    if (userUnit !== undefined && userUnit > 0) node.set(name('UserUnit'), PDFNumber.of(userUnit));
    doc.addPage(page);
    pages.push(count + n + 1);
  }
  return { count: missing, pages, detail };
}
