/**
 * Small rich-black text: the one definition that preflight's text.rich-black
 * check and the color.richblack-small-text-to-k fix both judge by, so a file
 * the fix has been run on no longer gives the finding, and a finding that
 * offers the fix is one the fix resolves.
 *
 * - Rich black: ink with K at least `minK` (0.95 unless the fix is told
 *   otherwise) and some C, M or Y, in whatever space it is reached through
 *   (DeviceCMYK, DefaultCMYK, ICC-based CMYK, Separation or DeviceN with
 *   process colorants, Indexed over any of them): the inks of core/interpret/paint.ts.
 * - Which colours text puts down: those of its rendering mode (fill for 0, 2,
 *   4, 6; stroke for 1, 2, 5, 6; none for 3 and 7).
 * - Small: the effective size (core/interpret/text-show.ts), rounded to
 *   0.1 pt as the report gives it, below the profile's `min_size_pt`.
 * - Fixable: a flat colour (not a pattern), not the registration colour
 *   (Separation All, which colour.registration is about and which is left as
 *   it is), in content the content fixes can rewrite (content-fix-reach.ts).
 */
import type { ColourSpaceInfo, Inks, PaintSummary, TextGroup, Within } from '../core/interpret/types';
import { paintsFill, paintsStroke } from '../core/interpret/text-show';
import { contentFixReaches } from './content-fix-reach';

/** The K from which a colour with some C, M or Y counts as rich black. */
export const RICH_BLACK_MIN_K = 0.95;

export function isRichBlack(inks: Inks | null, minK = RICH_BLACK_MIN_K): boolean {
  return inks !== null && inks.k >= minK && (inks.c > 0 || inks.m > 0 || inks.y > 0);
}

/** Text size as it is reported and judged: to 0.1 pt. */
export const judgedTextSize = (sizePt: number): number => Math.round(sizePt * 10) / 10;

export function isSmallText(sizePt: number, minSizePt: number): boolean {
  return judgedTextSize(sizePt) < minSizePt;
}

/** Which of the colours a text painting puts down are rich black. */
export function richBlackSides(
  painting: TextGroup['painting'],
  fill: PaintSummary | null,
  stroke: PaintSummary | null,
  minK = RICH_BLACK_MIN_K,
): { fill: boolean; stroke: boolean } {
  return {
    fill: paintsFill(painting) && fill !== null && isRichBlack(fill.inks, minK),
    stroke: paintsStroke(painting) && stroke !== null && isRichBlack(stroke.inks, minK),
  };
}

/** Whether color.richblack-small-text-to-k can paint text in this rich black, shown in this kind of stream, in K. */
export function richBlackFixable(paint: PaintSummary, within: Within): boolean {
  return !paint.pattern && !isRegistration(paint.space) && contentFixReaches(within);
}

/** Separation or DeviceN with the `All` colorant, directly or as an Indexed space's base. */
function isRegistration(space: ColourSpaceInfo): boolean {
  const s = space.family === 'Indexed' && space.base ? space.base : space;
  return (s.colorants ?? []).includes('All');
}
