/**
 * pages.unrotate: bakes a page's /Rotate into the page itself, so the page
 * looks exactly as before with no rotation left to interpret. Print workflows
 * (imposition, RIPs, our own box checks) disagree on whether boxes are meant
 * before or after /Rotate; a page without one leaves no room for doubt.
 *
 * For a clockwise turn R the new user space is the old one turned by R and
 * moved so the MediaBox starts at 0 0 (which also settles a MediaBox away from
 * the origin). Content, patterns and annotations follow (page-transform.ts),
 * every declared box is turned, and /Rotate goes: removed from the page, or
 * set to 0 when the page would otherwise inherit one from the page tree.
 *
 * Which rotation a page has is decided as pdf.js (our previews) and
 * readPageBoxes (our preflight) decide it: the inherited value, taken modulo
 * 360 (negative values count counterclockwise, so -90 is 270); a value that
 * is not a multiple of 90, or not a number, is invalid and shows the page
 * unturned. Such a value is removed (the page keeps how it looked in our
 * proofs) and the page counts as changed, since another viewer might round it.
 */
import { PDFDict, PDFName, PDFNumber, type PDFDocument } from '@cantoo/pdf-lib';
import { inheritedAttribute, readPageBoxes, setBox, type BoxName } from '../../core/page-boxes';
import { name, resolve } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { transformDestinations } from './destinations';
import { transformPage, transformRect, turnMatrix, type AppearanceLedger, type Matrix } from './page-transform';

const BOXES: BoxName[] = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'];

export function unrotatePages(doc: PDFDocument): FixOutcome {
  const context = doc.context;
  const pages: number[] = [];
  const unreadable: number[] = [];
  const ledger: AppearanceLedger = new Map();
  const moved = new Map<PDFDict, Matrix>();

  doc.getPages().forEach((page, i) => {
    const node = page.node;
    const raw = inheritedAttribute(node, 'Rotate');
    if (raw === undefined) return;
    const value = raw instanceof PDFNumber ? raw.asNumber() : Number.NaN;
    const valid = Number.isFinite(value) && value % 90 === 0;
    const turn = valid ? (((value % 360) + 360) % 360) : 0;
    if (valid && turn === 0) return; // 0, 360, -720…: shown unturned already.

    if (turn !== 0) {
      const boxes = readPageBoxes(context, node);
      const linear = turnMatrix(turn);
      const placed = transformRect(linear, boxes.media);
      const m: Matrix = [linear[0], linear[1], linear[2], linear[3], -placed[0], -placed[1]];
      if (!transformPage(context, node, m, turn, ledger)) {
        unreadable.push(i + 1);
        return;
      }
      moved.set(node, m);
      // The page's own entries override inherited MediaBox and CropBox, so turned copies go on the page.
      for (const key of BOXES) {
        const box = key === 'MediaBox' ? boxes.media : boxes.declared[key];
        if (box) setBox(context, node, key, transformRect(m, box));
      }
    }
    clearRotate(doc, node);
    pages.push(i + 1);
  });

  const links = transformDestinations(doc, moved);
  const outcome: FixOutcome = { count: pages.length, pages, detail: `pages whose rotation was baked into their content, boxes and annotations${links ? ` (${links} destination(s) moved with them)` : ''}` };
  if (unreadable.length > 0) {
    const list = unreadable.join(', ');
    if (pages.length === 0) outcome.skipReason = `The content of page ${list} could not be decoded, so its rotation could not be baked in.`;
    else outcome.detail += ` (not page ${list}: content could not be decoded)`;
  }
  return outcome;
}

/** No /Rotate on the page: removed, or 0 when an ancestor in the page tree would pass one down. */
function clearRotate(doc: PDFDocument, node: PDFDict): void {
  const parent = resolve(doc.context, node.get(name('Parent')));
  const inherited = parent instanceof PDFDict ? inheritedAttribute(parent, 'Rotate') : undefined;
  if (inherited === undefined) node.delete(PDFName.of('Rotate'));
  else node.set(PDFName.of('Rotate'), PDFNumber.of(0));
}
