/**
 * color.spot-to-process: spot colours (Separation and DeviceN spaces) whose
 * alternate space is DeviceCMYK are painted in that alternate instead, so the
 * file needs no extra plates. Each tint goes through the space's own tint
 * transform (pdf-function.ts: Types 0, 2, 3 and 4), which is exactly the
 * CMYK a reader without the ink shows, so previews hardly change; the print
 * changes from the ink to its process build, which is the point.
 *
 * In page content and the forms it paints (content-edit.ts):
 * - `cs` / `CS` selecting such a space → `c m y k k` / `K` of its initial
 *   colour (tint 1 everywhere), which also selects DeviceCMYK;
 * - `sc` / `scn` / `SC` / `SCN` in such a space → `c m y k k` / `K` of the tints.
 * The ColorSpace resources stay (patterns, annotation appearances or images may
 * still name them; preflight judges only what is painted).
 *
 * Left, with the reason in the detail: spaces whose alternate is not
 * DeviceCMYK (RGB, Lab, ICC-based: converting would need colour management),
 * tint transforms we cannot evaluate, registration (`All`) and `None`
 * colorants (printer marks and nothing, not inks to convert), and spot colours
 * in images, shadings, patterns and annotation appearances.
 */
import { PDFArray, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import type { Operand } from '../../core/content-lexer';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import { resolve } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { colourNumber, editContent, editOutcome } from './content-edit';
import { pdfFunction, type PdfFunction } from './pdf-function';
import { spotLeftBecause } from '../../criteria/spot-conversion';

const SET_COLOUR: Record<string, boolean> = { sc: true, scn: true, SC: false, SCN: false };

export function spotToProcess(doc: PDFDocument): FixOutcome {
  const context = doc.context;
  /** Per space (as the interpreter resolved it): its tint transform, or why it is left. */
  const verdicts = new Map<ColourSpaceInfo, PdfFunction | string>();
  const left = new Map<string, string>();

  const result = editContent(doc, (site) => {
    const { x, op } = site;
    if (x.frame.uncoloured) return;
    if (op.op === 'cs' || op.op === 'CS') {
      const operand = op.operands[op.operands.length - 1];
      const space = x.run.colourSpaces.ofOperand(operand, x.resources);
      if (!space || (space.family !== 'Separation' && space.family !== 'DeviceN')) return;
      let verdict = verdicts.get(space);
      if (verdict === undefined) {
        const obj = operand && typeof operand === 'object' && 'name' in operand ? x.resource('ColorSpace', operand.name).obj : undefined;
        verdict = judge(context, space, resolve(context, obj));
        verdicts.set(space, verdict);
      }
      if (typeof verdict === 'string') {
        left.set(space.label, verdict);
        return;
      }
      const cmyk = verdict(new Array<number>(space.components).fill(1));
      if (cmyk) site.replace(`${cmyk.map(colourNumber).join(' ')} ${op.op === 'cs' ? 'k' : 'K'}`);
    } else if (op.op in SET_COLOUR) {
      const fill = SET_COLOUR[op.op]!;
      const space = fill ? x.gs.fillSpace : x.gs.strokeSpace;
      const verdict = verdicts.get(space);
      if (typeof verdict !== 'function') return;
      const tints = numbers(op.operands);
      if (!tints || tints.length !== space.components) return;
      const cmyk = verdict(tints);
      if (cmyk) site.replace(`${cmyk.map(colourNumber).join(' ')} ${fill ? 'k' : 'K'}`);
    }
  });

  const leftText = [...left.entries()].map(([label, why]) => `${label} (${why})`).join(', ');
  return editOutcome(result, `${result.tally} spot colour setting(s) converted to CMYK through their tint transforms`, 'No spot colour could be converted', [
    left.size > 0 ? `left: ${leftText}` : '',
  ]);
}

/** The tint transform of a convertible space (criteria/spot-conversion.ts), or why it is left. */
function judge(context: PDFContext, space: ColourSpaceInfo, obj: unknown): PdfFunction | string {
  const left = spotLeftBecause(space);
  if (left !== null) return left;
  if (!(obj instanceof PDFArray) || obj.size() < 4) return 'colour space not readable';
  const fn = pdfFunction(context, obj.get(3));
  if (!fn) return 'tint transform not supported';
  const probe = fn(new Array<number>(space.components).fill(1));
  if (!probe || probe.length !== 4) return 'tint transform does not give 4 CMYK values';
  return fn;
}

function numbers(operands: Operand[]): number[] | null {
  const out: number[] = [];
  for (const o of operands) {
    if (typeof o !== 'number' || !Number.isFinite(o)) return null;
    out.push(o);
  }
  return out;
}
