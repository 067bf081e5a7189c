/**
 * Text in a generated appearance (a text field's value, a free text
 * annotation's contents), laid out from the default appearance string DA
 * (ISO 32000-1 12.7.3.3: font resource name, size, colour) and the form's
 * default resources DR.
 *
 * PDF/A requires every font that draws text to be embedded, so text is drawn
 * only where that costs nothing and risks nothing: the DA font is a simple
 * font (Type1 or TrueType) whose whole program is in the file (not a subset,
 * which may lack the glyphs), not symbolic, with a standard encoding that
 * maps the value's characters — printable ASCII, each with a width in the
 * font's Widths. Anything else is left undrawn and the caller says so; a
 * font is never added, since the only ones at hand (the standard 14) are not
 * embedded.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { isName, operations } from '../../core/content-lexer';
import { describeFont } from '../../core/fonts';
import { nameToken, stringToken } from '../../core/content-writer';
import { getArray, getDict, getName, getNumber, name, numbersOf, resolve } from '../../core/pdf-objects';
import { colourOp, n, type IntentSpace } from './appearance-drawing';

export interface DefaultAppearance {
  font: string | null;
  size: number;
  /** The DA colour's components (1, 3 or 4), or null when DA sets none. */
  colour: number[] | null;
}

/** Reads a DA string: the last Tf and the last colour operator it sets. */
export function parseDa(da: string | undefined): DefaultAppearance {
  const out: DefaultAppearance = { font: null, size: 0, colour: null };
  if (!da) return out;
  for (const op of operations(new TextEncoder().encode(da))) {
    const nums = op.operands.filter((o): o is number => typeof o === 'number');
    if (op.op === 'Tf' && isName(op.operands[0]) && typeof op.operands[1] === 'number') {
      out.font = op.operands[0].name;
      out.size = Math.max(0, op.operands[1]);
    } else if ((op.op === 'g' && nums.length === 1) || (op.op === 'rg' && nums.length === 3) || (op.op === 'k' && nums.length === 4)) {
      out.colour = nums.map((v) => Math.min(1, Math.max(0, v)));
    }
  }
  return out;
}

export interface TextBox {
  width: number;
  height: number;
  /** Space kept free on every side (border and padding). */
  inset: number;
  /** 0 left, 1 centred, 2 right. */
  quadding: number;
  multiline: boolean;
}

export type TextDrawing = { ok: true; content: string; fontName: string; font: PDFObject } | { ok: false; reason: string };

const STANDARD_ENCODINGS = ['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding'];

/** Content showing `text` in `box` (box coordinates from 0,0), or why it cannot be drawn. */
export function drawText(ctx: PDFContext, dr: PDFDict | undefined, da: DefaultAppearance, text: string, box: TextBox, intent: IntentSpace): TextDrawing {
  if (!da.font) return { ok: false, reason: 'its default appearance names no font' };
  const fontEntry = getDict(dr, 'Font')?.get(name(da.font));
  const font = resolve(ctx, fontEntry);
  if (!(font instanceof PDFDict) || fontEntry === undefined) return { ok: false, reason: `its font ${da.font} is not in the form's resources` };
  const info = describeFont(ctx, font);
  if (!info.embedded || info.type === 'Type3') return { ok: false, reason: `its font ${info.name} is not embedded` };
  if (info.subset) return { ok: false, reason: `its font ${info.name} is embedded only as a subset` };
  if (!['Type1', 'TrueType', 'MMType1'].includes(info.type)) return { ok: false, reason: `its font ${info.name} is a composite font` };
  const descriptor = getDict(font, 'FontDescriptor');
  if (((getNumber(descriptor, 'Flags') ?? 0) & 4) !== 0) return { ok: false, reason: `its font ${info.name} is symbolic` };
  const lines = (box.multiline ? text.split(/\r\n|\r|\n/) : [text.replace(/[\r\n]+/g, ' ')]).filter((l, i, all) => l.length > 0 || i < all.length - 1);
  const codes = new Set([...lines.join('')].map((c) => c.codePointAt(0)!));
  if ([...codes].some((c) => c < 0x20 || c > 0x7e)) return { ok: false, reason: 'its text has characters other than printable ASCII' };
  const enc = resolve(ctx, font.get(name('Encoding')));
  if (enc instanceof PDFName ? !STANDARD_ENCODINGS.includes(enc.decodeText()) : enc instanceof PDFDict ? remapped(enc, codes) : enc !== undefined) {
    return { ok: false, reason: `its font ${info.name} has an encoding that does not keep ASCII codes` };
  }
  const first = getNumber(font, 'FirstChar') ?? 0;
  const widths = numbersOf(getArray(font, 'Widths')) ?? [];
  const widthOf = (c: number): number | undefined => (Number.isFinite(widths[c - first]) ? widths[c - first] : undefined);
  if ([...codes].some((c) => widthOf(c) === undefined)) return { ok: false, reason: `its font ${info.name} has no width for some of the characters` };

  const ascent = (getNumber(descriptor, 'Ascent') ?? 800) / 1000;
  const descent = Math.min(0, (getNumber(descriptor, 'Descent') ?? -200) / 1000);
  const lineWidth = (l: string) => [...l].reduce((sum, ch) => sum + widthOf(ch.codePointAt(0)!)!, 0) / 1000;
  const innerW = Math.max(0, box.width - 2 * box.inset);
  const innerH = Math.max(0, box.height - 2 * box.inset);
  // Size 0 means "auto": as large as fits the height (one line) and the width, at most 12 points.
  let size = da.size;
  if (size <= 0) {
    const byHeight = box.multiline ? 12 : innerH / (ascent - descent || 1);
    const widest = Math.max(0, ...lines.map(lineWidth));
    size = Math.max(4, Math.min(12, byHeight, widest > 0 ? innerW / widest : 12));
  }
  const leading = size * (ascent - descent || 1);
  const colour = colourOp(da.colour ?? [0], false, intent);
  const out = ['/Tx BMC', 'q', `${n(box.inset)} ${n(box.inset)} ${n(innerW)} ${n(innerH)} re W n`, 'BT', `${nameToken(da.font)} ${n(size)} Tf`];
  if (colour) out.push(colour);
  // The first baseline: centred vertically for one line, from the top for several.
  let y = box.multiline ? box.height - box.inset - ascent * size : (box.height - (ascent - descent) * size) / 2 - descent * size;
  let prevX = 0;
  let prevY = 0;
  for (const l of lines) {
    const w = lineWidth(l) * size;
    const x = box.quadding === 1 ? (box.width - w) / 2 : box.quadding === 2 ? box.width - box.inset - w : box.inset;
    out.push(`${n(x - prevX)} ${n(y - prevY)} Td`, `${stringToken(new TextEncoder().encode(l))} Tj`);
    prevX = x;
    prevY = y;
    y -= leading;
  }
  out.push('ET', 'Q', 'EMC');
  return { ok: true, content: out.join('\n'), fontName: da.font, font: fontEntry };
}

/** True when an encoding dictionary's Differences (or base) changes any of the codes. */
function remapped(enc: PDFDict, codes: Set<number>): boolean {
  const base = getName(enc, 'BaseEncoding');
  if (base !== undefined && !STANDARD_ENCODINGS.includes(base)) return true;
  const diffs = enc.lookup(name('Differences'));
  if (!(diffs instanceof PDFArray)) return false;
  let code = -1;
  for (let i = 0; i < diffs.size(); i++) {
    const v = diffs.lookup(i);
    if (v instanceof PDFNumber) code = v.asNumber();
    else if (v instanceof PDFName) {
      if (codes.has(code)) return true;
      code++;
    }
  }
  return false;
}
