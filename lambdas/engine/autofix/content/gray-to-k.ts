/**
 * color.gray-to-k: DeviceGray fills and strokes become DeviceCMYK black only.
 * A gray level v prints as K = 1 − v (ISO 32000-1 10.3.5: gray is the black
 * plate), so `v g` becomes `0 0 0 1−v k` and prints the same; what changes is
 * that the file no longer uses DeviceGray, which some workflows and PDF/X
 * checks want gone, and that every black is explicitly K.
 *
 * Converted, in page content and the forms it paints (content-edit.ts):
 * - `g` / `G`;
 * - `cs` / `CS` selecting DeviceGray (by name or through a ColorSpace
 *   resource that is DeviceGray) → `/DeviceCMYK cs`: both start at black;
 * - `sc` / `scn` / `SC` / `SCN` while the current space is DeviceGray →
 *   `k` / `K`, which also sets the space, so the result is right whether the
 *   gray space came from a `cs` we converted or from the initial state.
 *
 * Left alone: images and shadings (their samples and functions would have to be
 * rewritten), annotation appearances, patterns, glyph procedures and soft masks
 * (see content-edit.ts), gray replaced by a DefaultGray colour space (colour
 * managed: converting it would change the colour; counted in the detail), and
 * content painted in the initial colour without ever setting one (black by
 * default: it prints as K already).
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { Operand } from '../../core/content-lexer';
import type { FixOutcome } from '../fix';
import { colourNumber, editContent, editOutcome } from './content-edit';

const FILL: Record<string, boolean> = { sc: true, scn: true, SC: false, SCN: false };

export function grayToK(doc: PDFDocument): FixOutcome {
  let managed = 0;
  const result = editContent(doc, (site) => {
    const { x, op } = site;
    if (x.frame.uncoloured) return;
    if (op.op === 'g' || op.op === 'G') {
      const v = lastNumber(op.operands);
      if (v === null) return;
      if (x.device('DeviceGray').defaulted) {
        managed++;
        return;
      }
      site.replace(`0 0 0 ${colourNumber(1 - v)} ${op.op === 'g' ? 'k' : 'K'}`);
    } else if (op.op === 'cs' || op.op === 'CS') {
      const space = x.run.colourSpaces.ofOperand(op.operands[op.operands.length - 1], x.resources);
      if (space?.family !== 'DeviceGray') return;
      if (space.defaulted) {
        managed++;
        return;
      }
      site.replace(`/DeviceCMYK ${op.op}`);
    } else if (op.op in FILL) {
      const fill = FILL[op.op]!;
      const space = fill ? x.gs.fillSpace : x.gs.strokeSpace;
      if (space.family !== 'DeviceGray' || space.defaulted) return;
      // Gray has one component: the last number is it (extra operands are junk readers ignore).
      const v = lastNumber(op.operands);
      if (v === null || op.operands.some((o) => typeof o !== 'number')) return;
      site.replace(`0 0 0 ${colourNumber(1 - v)} ${fill ? 'k' : 'K'}`);
    }
  });
  return editOutcome(
    result,
    `${result.tally} DeviceGray colour setting(s) converted to K in ${result.streams} content stream(s)`,
    'No DeviceGray colour could be converted',
    [managed > 0 ? `${managed} gray colour setting(s) under a DefaultGray colour space left` : ''],
  );
}

function lastNumber(operands: Operand[]): number | null {
  const v = operands[operands.length - 1];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
