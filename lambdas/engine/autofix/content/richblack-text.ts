/**
 * color.richblack-small-text-to-k: small text in a rich black (black built
 * from K plus some C, M or Y) is painted in 100 % K instead. Small type in
 * several inks shows coloured fringes as soon as the plates misregister; in K
 * alone it stays sharp. Large text and other objects keep their rich black
 * (there it is a deliberate deeper black).
 *
 * The rule is the one preflight's text.rich-black check applies (PaintSummary
 * richBlack in core/interpret/paint.ts: K ≥ 0.95 with some C, M or Y), with
 * the threshold `minK` adjustable, so a file fixed with the defaults no longer
 * gives that finding for text below `maxTextPt` (the check's min_size_pt is 12
 * in every profile). Only DeviceCMYK colours are changed: a rich black reached
 * through a Separation, DeviceN or ICC space is left (the check also flags
 * registration colour, which colour.registration is about).
 *
 * How: `0 0 0 1 k` (or `K` for stroked text) just before the showing operator
 * and the original colour set again just after, both inside the text object
 * (colour operators are allowed there). The colour of everything else painted
 * with it is untouched.
 */
import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import { verticalScale } from '../../core/interpret/matrix';
import type { FixOutcome } from '../fix';
import { numberToken } from '../../core/content-writer';
import { editContent, editOutcome } from './content-edit';

const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);
const FILLS = [true, false, true, false, true, false, true, false];
const STROKES = [false, true, true, false, false, true, true, false];

export function richBlackTextToK(doc: PDFDocument, opts: { maxTextPt: number; minK: number }): FixOutcome {
  const result = editContent(doc, (site) => {
    const { x, op } = site;
    if (!TEXT_SHOW.has(op.op)) return;
    const g = x.gs;
    const font = g.font;
    const mode = g.render >= 0 && g.render <= 7 ? g.render : 0;
    if (!font || mode === 3 || mode === 7) return;
    const size = Math.abs(g.fontSize) * verticalScale(x.textMatrix()) * x.run.userUnit * font.sizeFactor;
    if (!(size < opts.maxTextPt)) return;
    const fill = FILLS[mode]! && isRichBlack(g.fillSpace, g.fillPattern, g.fillComps, opts.minK);
    const stroke = STROKES[mode]! && isRichBlack(g.strokeSpace, g.strokePattern, g.strokeComps, opts.minK);
    if (!fill && !stroke) return;
    if (fill) {
      site.before('0 0 0 1 k');
      site.after(`${g.fillComps.map(numberToken).join(' ')} k`);
    }
    if (stroke) {
      site.before('0 0 0 1 K');
      site.after(`${g.strokeComps.map(numberToken).join(' ')} K`);
    }
    site.tally();
  });
  return editOutcome(result, `${result.tally} small text run(s) in rich black set in 100 % K`, 'Nothing was changed');
}

/** DeviceCMYK (not a pattern, not under DefaultCMYK) with K ≥ minK and some C, M or Y. */
function isRichBlack(space: ColourSpaceInfo, pattern: PDFObject | null, comps: readonly number[], minK: number): boolean {
  if (space.family !== 'DeviceCMYK' || space.defaulted || pattern || comps.length !== 4) return false;
  const [c, m, y, k] = comps as [number, number, number, number];
  return k >= minK && (c > 0 || m > 0 || y > 0);
}
