/**
 * color.richblack-small-text-to-k: small text in a rich black (black built
 * from K plus some C, M or Y) is painted in 100 % K instead. Small type in
 * several inks shows coloured fringes as soon as the plates misregister; in K
 * alone it stays sharp. Large text and other objects keep their rich black
 * (there it is a deliberate deeper black).
 *
 * What qualifies is what preflight's text.rich-black check reports, by the
 * one definition both use (criteria/rich-black-text.ts): the colours the
 * rendering mode puts down, rich black through whatever space reaches it
 * (DeviceCMYK, ICC-based CMYK, Separation or DeviceN with process colorants,
 * Indexed), text whose effective size, to 0.1 pt, is below `maxTextPt`. Run
 * with preflight's settings, `maxTextPt` is the profile's min_size_pt for
 * text.rich-black (index.ts), so the fix changes exactly what the check found.
 * Left, and so not offered by the check: text painted with a pattern, the
 * registration colour (colour.registration is about it), and what the content
 * fixes never edit (annotation appearances, patterns, Type 3 glyphs).
 *
 * How: `0 0 0 1 k` (or `K` for stroked text) just before the showing operator
 * and the original colour set again just after, both inside the text object
 * (colour operators are allowed there). A DeviceCMYK colour is set again with
 * `k`; one in a named space with `/Name cs … scn`, by the name that selects
 * that space in the stream's resources, or, where the space was selected in
 * the stream that paints a form, under a name added for it. The colour of
 * everything else painted with it is untouched.
 */
import type { PDFDocument, PDFObject } from '@cantoo/pdf-lib';
import { PDFRef } from '@cantoo/pdf-lib';
import { isName, type Operation } from '../../core/content-lexer';
import { nameToken, numberToken } from '../../core/content-writer';
import type { Executor } from '../../core/interpret/executor';
import { effectiveTextSize, paintsFill, paintsStroke, textPainting } from '../../core/interpret/text-show';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import { getDict, name } from '../../core/pdf-objects';
import { isSmallText, richBlackFixable, richBlackSides } from '../../criteria/rich-black-text';
import type { FixOutcome } from '../fix';
import { editContent, editOutcome, type EditSite } from './content-edit';

const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);

export function richBlackTextToK(doc: PDFDocument, opts: { maxTextPt: number; minK: number }): FixOutcome {
  /** The ColorSpace resource entry that selected each named space, to select it again. */
  const selected = new Map<ColourSpaceInfo, PDFObject>();
  const keys = new ResourceKeys();
  let unnamed = 0;
  const result = editContent(doc, (site) => {
    const { x, op } = site;
    if (op.op === 'cs' || op.op === 'CS') return remember(x, op, selected);
    const g = x.gs;
    if (!TEXT_SHOW.has(op.op) || !g.font) return;
    if (!isSmallText(effectiveTextSize(g.fontSize, x.textMatrix(), x.run.userUnit, g.font), opts.maxTextPt)) return;
    const painting = textPainting(g.render);
    const fill = paintsFill(painting) ? x.fillPaint() : null;
    const stroke = paintsStroke(painting) ? x.strokePaint() : null;
    const sides = richBlackSides(painting, fill, stroke, opts.minK);
    const changes: [string, string][] = [];
    for (const side of [true, false]) {
      const paint = side ? fill : stroke;
      if (!(side ? sides.fill : sides.stroke) || !richBlackFixable(paint!, x.frame.within)) continue;
      const back = colourSetting(site, selected, keys, side ? g.fillSpace : g.strokeSpace, side ? g.fillComps : g.strokeComps, side);
      if (back === null) unnamed++;
      else changes.push([`0 0 0 1 ${side ? 'k' : 'K'}`, back]);
    }
    if (changes.length === 0) return;
    for (const [k, back] of changes) {
      site.before(k);
      site.after(back);
    }
    site.tally();
  });
  return editOutcome(result, `${result.tally} small text run(s) in rich black set in 100 % K`, 'Nothing was changed', [
    unnamed > 0 ? `${unnamed} text run(s) left whose colour space could not be selected again` : '',
  ]);
}

/** Notes which ColorSpace resource a `cs`/`CS` selects, under the space the interpreter resolves it to. */
function remember(x: Executor, op: Operation, selected: Map<ColourSpaceInfo, PDFObject>): void {
  const operand = op.operands[op.operands.length - 1];
  if (!isName(operand)) return;
  const space = x.run.colourSpaces.ofOperand(operand, x.resources);
  const entry = getDict(x.resources, 'ColorSpace')?.get(name(operand.name));
  if (space && entry !== undefined) selected.set(space, entry);
}

/** The operators that set a colour again, or null when its space cannot be named in this stream. */
function colourSetting(site: EditSite, selected: Map<ColourSpaceInfo, PDFObject>, keys: ResourceKeys, space: ColourSpaceInfo, comps: readonly number[], fill: boolean): string | null {
  const values = comps.map(numberToken).join(' ');
  if (space.family === 'DeviceCMYK') return `${values} ${fill ? 'k' : 'K'}`;
  const entry = selected.get(space);
  if (entry === undefined) return null;
  let key = getDict(site.x.resources, 'ColorSpace')?.entries().find(([, v]) => v === entry)?.[0].decodeText();
  if (key === undefined) {
    if (!site.canAddResources) return null;
    key = keys.of(entry);
    site.need({ category: 'ColorSpace', key, make: () => entry });
  }
  return `${nameToken(key)} ${fill ? 'cs' : 'CS'} ${values} ${fill ? 'scn' : 'SCN'}`;
}

/** A resource key per colour space added: by object number for an indirect one, else numbered in order. */
class ResourceKeys {
  private readonly direct = new Map<PDFObject, string>();

  of(entry: PDFObject): string {
    if (entry instanceof PDFRef) return `PLColourSpace${entry.objectNumber}`;
    let key = this.direct.get(entry);
    if (key === undefined) this.direct.set(entry, (key = `PLColourSpaceD${this.direct.size + 1}`));
    return key;
  }
}
