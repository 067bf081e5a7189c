/**
 * overprint.white-knockout: white objects set to overprint are turned back to
 * knockout. White is no ink; overprinted, it lets everything underneath show
 * through, so the object disappears in print although every screen preview
 * shows it (a classic: white text on a photo, set to overprint by a "black
 * overprints" style applied too widely).
 *
 * What is white: paint that puts down no ink, as preflight's overprint.white
 * check judges it (PaintSummary.white: CMYK 0/0/0/0, gray 1, RGB 1/1/1, tint
 * 0). Changed: filled and stroked paths and text whose painted colour is white
 * while overprint is on for it (op for fills, OP for strokes). An ExtGState
 * turning overprint off for that side is set just before the object (before
 * its path starts for a path: no state may change inside one) and one
 * restoring the previous state just after, so nothing else changes.
 *
 * Left: images and shadings (white there is a matter of pixels), content in
 * forms without their own /Resources (counted), and what content-edit.ts never
 * edits (annotation appearances, patterns, soft masks): criteria/white-overprint.ts,
 * by which the check offers this fix.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { paintsFill, paintsStroke, textPainting } from '../../core/interpret/text-show';
import type { FixOutcome } from '../fix';
import { editContent, editOutcome } from './content-edit';
import { overprintAround, overprintState } from './overprint-black';

const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);
const FILL_PATH = new Set(['f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);
const STROKE_PATH = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);

export function whiteKnockout(doc: PDFDocument): FixOutcome {
  let noResources = 0;
  const result = editContent(doc, (site) => {
    const { x, op } = site;
    const g = x.gs;
    let fills: boolean;
    let strokes: boolean;
    let from = site.index;
    if (TEXT_SHOW.has(op.op)) {
      if (!g.font) return;
      const painting = textPainting(g.render);
      fills = paintsFill(painting);
      strokes = paintsStroke(painting);
    } else if (FILL_PATH.has(op.op) || STROKE_PATH.has(op.op)) {
      if (site.pathStart < 0) return;
      fills = FILL_PATH.has(op.op);
      strokes = STROKE_PATH.has(op.op);
      from = site.pathStart;
    } else return;
    const fillOff = fills && g.fillOverprint && x.fillPaint().white;
    const strokeOff = strokes && g.strokeOverprint && x.strokePaint().white;
    if (!fillOff && !strokeOff) return;
    const mode = g.overprintMode === 1 ? 1 : 0;
    const off = overprintState(g.strokeOverprint && !strokeOff, g.fillOverprint && !fillOff, mode);
    const back = overprintState(g.strokeOverprint, g.fillOverprint, mode);
    if (!overprintAround(site, from, off, back)) noResources++;
  });
  return editOutcome(result, `${result.tally} white object(s) set to knock out instead of overprinting`, 'Nothing was changed', [
    noResources > 0 ? `${noResources} object(s) in forms without their own resources left` : '',
  ]);
}
