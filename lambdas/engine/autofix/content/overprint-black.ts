/**
 * overprint.black-text: small 100 % black text and thin 100 % black lines
 * overprint, so they print on top of what is underneath instead of leaving a
 * knocked-out gap around them: slight misregistration then shows no white
 * fringe. This is what prepress does by default for black; the fix makes it
 * explicit in the file, where RIPs that do not apply black overprint on their
 * own will honour it.
 *
 * What qualifies: text shown in DeviceCMYK 0/0/0/1 (every colour the text
 * rendering mode paints with) smaller than `maxTextPt` in effective size (font
 * size × text matrix × CTM × UserUnit, as preflight measures it), and pure
 * strokes (S, s) in 0/0/0/1 thinner than `maxLinePt` as drawn. DeviceGray
 * black is not DeviceCMYK (overprint mode 1 applies to CMYK only): run
 * color.gray-to-k first, as the catalogue order does.
 *
 * How: an ExtGState with /OP true /op true /OPM 1 is set just before the
 * object (for text: before the showing operator, allowed inside BT…ET; for a
 * stroke: before its path starts, since no state may change inside a path),
 * and one restoring the overprint state that was in effect is set just after.
 * Objects already overprinting with OPM 1 are left, so a second run changes
 * nothing. Streams that cannot take new resources (forms without their own
 * /Resources) are left and counted.
 *
 * Screen previews do not simulate overprint, so pages look the same; the
 * separations change, which is the point.
 */
import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import { minScale } from '../../core/interpret/matrix';
import { effectiveTextSize } from '../../core/interpret/text-show';
import type { FixOutcome } from '../fix';
import { editContent, editOutcome, type EditSite, type NeededResource } from './content-edit';

const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);
const STROKE_ONLY = new Set(['S', 's']);
const FILLS = [true, false, true, false, true, false, true, false];
const STROKES = [false, true, true, false, false, true, true, false];

export function overprintBlack(doc: PDFDocument, opts: { maxTextPt: number; maxLinePt: number }): FixOutcome {
  let noResources = 0;
  const result = editContent(doc, (site) => {
    const { x, op } = site;
    const g = x.gs;
    if (TEXT_SHOW.has(op.op)) {
      const font = g.font;
      const mode = g.render >= 0 && g.render <= 7 ? g.render : 0;
      if (!font || mode === 3 || mode === 7) return;
      const fills = FILLS[mode]!;
      const strokes = STROKES[mode]!;
      if (fills && !isSolidK(g.fillSpace, g.fillPattern, g.fillComps)) return;
      if (strokes && !isSolidK(g.strokeSpace, g.strokePattern, g.strokeComps)) return;
      const size = effectiveTextSize(g.fontSize, x.textMatrix(), x.run.userUnit, font);
      if (!(size < opts.maxTextPt)) return;
      if ((!fills || g.fillOverprint) && (!strokes || g.strokeOverprint) && g.overprintMode === 1) return;
      wrap(site, site.index);
    } else if (STROKE_ONLY.has(op.op)) {
      if (!isSolidK(g.strokeSpace, g.strokePattern, g.strokeComps) || site.pathStart < 0) return;
      const width = g.lineWidth * minScale(g.ctm) * x.run.userUnit;
      if (!(width < opts.maxLinePt)) return;
      if (g.strokeOverprint && g.overprintMode === 1) return;
      wrap(site, site.pathStart);
    }
  });

  /** Sets overprint before operation `from` and restores the previous overprint state after this one. */
  function wrap(site: EditSite, from: number): void {
    const g = site.x.gs;
    const back = overprintState(g.strokeOverprint, g.fillOverprint, g.overprintMode === 1 ? 1 : 0);
    if (!overprintAround(site, from, overprintState(true, true, 1), back)) noResources++;
  }

  return editOutcome(result, `${result.tally} black object(s) set to overprint (small text runs and thin lines)`, 'Nothing was set to overprint', [
    noResources > 0 ? `${noResources} object(s) in forms without their own resources left` : '',
  ]);
}

/** DeviceCMYK 0/0/0/1 exactly (within rounding), not a pattern, not colour-managed by DefaultCMYK. */
export function isSolidK(space: ColourSpaceInfo, pattern: PDFObject | null, comps: readonly number[]): boolean {
  if (space.family !== 'DeviceCMYK' || space.defaulted || pattern || comps.length !== 4) return false;
  return comps[0]! <= 1e-4 && comps[1]! <= 1e-4 && comps[2]! <= 1e-4 && comps[3]! >= 0.9999;
}

/**
 * Sets the ExtGState `set` just before operation `from` (the object's first
 * operation) and `restore` just after the current one, so the overprint change
 * covers this object and nothing else (both overprint fixes). False, and
 * nothing changed, where the stream cannot take new resources.
 */
export function overprintAround(site: EditSite, from: number, set: NeededResource, restore: NeededResource): boolean {
  if (!site.canAddResources) return false;
  site.need(set);
  site.need(restore);
  site.before(`/${set.key} gs`, from);
  site.after(`/${restore.key} gs`);
  site.tally();
  return true;
}

/** An ExtGState setting the three overprint parameters, under a name that says which values it holds. */
export function overprintState(stroke: boolean, fill: boolean, mode: 0 | 1): NeededResource {
  return {
    category: 'ExtGState',
    key: `PLOverprint${stroke ? 1 : 0}${fill ? 1 : 0}${mode}`,
    make: (context) => context.obj({ Type: 'ExtGState', OP: stroke, op: fill, OPM: mode }),
  };
}
