/**
 * Appearances for form field widgets that have none (ISO 32000-1 12.7.3 and
 * 12.5.6.19), drawn in the widget's own box ([0 0 width height]):
 *
 * - every widget: the MK background colour (BG) filled and the MK border
 *   colour (BC) stroked at the border width, as viewers draw a field frame;
 * - check boxes and radio buttons: a state dictionary with Off (the frame)
 *   and the on state, named by AS or else by the field's value V, drawn as
 *   the frame with a vector mark (a check, or the cross, dot or square MK CA
 *   asks for; a radio button's dot) in the DA colour — no ZapfDingbats, which
 *   PDF/A would need embedded. AS is set when missing, from V.
 * - push buttons: one state (AS, else On) holding the frame; a caption is not
 *   drawn (it needs a font);
 * - text fields and combo boxes: the frame and the value, laid out from DA
 *   (appearance-text.ts) when the font allows; a password field's value never.
 *
 * What cannot be drawn is named in `why`.
 */
import { PDFArray, PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { getDict, getName, getNumber, getText, name } from '../../core/pdf-objects';
import { inheritedFieldEntry, textValue } from '../../core/form-fields';
import { borderOf, colourArray, colourOp, insetRect, n, type Built, type IntentSpace } from './appearance-drawing';
import { drawText, parseDa } from './appearance-text';

type Rect = [number, number, number, number];

export type WidgetAppearance = ({ form: Built } | { states: Record<string, Built>; as: string }) & { drawn: boolean; why?: string };

/** Field flags (ISO 32000-1 Tables 226, 228, 230). */
const FF = { multiline: 1 << 12, password: 1 << 13, radio: 1 << 15, pushbutton: 1 << 16, combo: 1 << 17 } as const;

export function drawWidget(doc: PDFDocument, annot: PDFDict, rect: Rect, intent: IntentSpace): WidgetAppearance {
  const ctx = doc.context;
  const acroForm = getDict(doc.catalog as PDFDict, 'AcroForm');
  const inherited = (key: string) => inheritedFieldEntry(annot, key);
  const ftObj = inherited('FT');
  const ft = ftObj instanceof PDFName ? ftObj.decodeText() : undefined;
  const ffObj = inherited('Ff');
  const ff = ffObj && 'asNumber' in ffObj ? Number((ffObj as { asNumber(): number }).asNumber()) : 0;
  const w = rect[2] - rect[0];
  const h = rect[3] - rect[1];
  const bbox: Rect = [0, 0, w, h];
  const mk = getDict(annot, 'MK');
  const frameBorder = borderOf(ctx, annot);
  const bc = mk ? colourArray(mk, 'BC') : null;
  const bg = mk ? colourArray(mk, 'BG') : null;
  const borderWidth = bc && bc.length && frameBorder.width > 0 ? frameBorder.width : 0;
  const frame: string[] = [];
  const bgOp = colourOp(bg, false, intent);
  if (bgOp) frame.push(bgOp, `0 0 ${n(w)} ${n(h)} re f`);
  if (borderWidth > 0) frame.push(colourOp(bc, true, intent)!, `${n(borderWidth)} w ${frameBorder.dash ? `[${frameBorder.dash.map(n).join(' ')}] 0 d` : ''}`.trim(), insetRect(bbox, borderWidth), 'S');
  const framed = (extra: string[] = []): string => (frame.length || extra.length ? ['q', ...frame, ...extra, 'Q'].join('\n') : '');
  const da = parseDa(getText(annot, 'DA') ?? textOf(inherited('DA')) ?? getText(acroForm, 'DA'));

  if (ft === 'Btn') {
    const as = getName(annot, 'AS');
    if (ff & FF.pushbutton) {
      const state = as ?? 'On';
      const caption = mk ? getText(mk, 'CA') : undefined;
      return { states: { [state]: { content: framed(), bbox } }, as: state, drawn: frame.length > 0, ...(caption ? { why: 'its caption is not drawn (it needs a font)' } : {}) };
    }
    const v = inherited('V');
    const value = v instanceof PDFName ? v.decodeText() : undefined;
    // The on state: AS when it names one; else the field's value, for a check box or a radio button alone in its field.
    const single = !(ff & FF.radio) || kidCount(doc, annot) <= 1;
    const on = as && as !== 'Off' ? as : value && value !== 'Off' && single ? value : undefined;
    const states: Record<string, Built> = { Off: { content: framed(), bbox } };
    if (on) states[on] = { content: framed(mark(ff & FF.radio ? 'l' : (mk && getText(mk, 'CA')) || '4', w, h, da.colour, intent)), bbox };
    const current = as ?? (on && value === on ? on : 'Off');
    return { states, as: current, drawn: true, ...(on ? {} : { why: 'no on state is named (AS and V are Off or missing), so only Off is drawn' }) };
  }

  // An empty marked-content pair (what a text field's empty value leaves) draws nothing.
  const form = (extra: string[], why?: string): WidgetAppearance => ({ form: { content: framed(extra), bbox }, drawn: frame.length > 0 || extra.some((e) => e !== '/Tx BMC' && e !== 'EMC'), ...(why ? { why } : {}) });
  if (ft === 'Tx' || (ft === 'Ch' && ff & FF.combo)) {
    const raw = inherited('V');
    const value = raw instanceof PDFArray ? textOf(raw.lookup(0)) : textValue(raw);
    if (!value) return form(['/Tx BMC', 'EMC']);
    if (ff & FF.password) return form(['/Tx BMC', 'EMC'], 'a password field’s value is never drawn');
    const q = getNumber(annot, 'Q') ?? numberOf(inherited('Q')) ?? getNumber(acroForm, 'Q') ?? 0;
    const dr = getDict(acroForm, 'DR');
    const text = drawText(ctx, dr, da, value, { width: w, height: h, inset: borderWidth + 2, quadding: q, multiline: ft === 'Tx' && (ff & FF.multiline) !== 0 }, intent);
    if (!text.ok) return form(['/Tx BMC', 'EMC'], `its value is not drawn: ${text.reason}`);
    const built = form([text.content]);
    if ('form' in built) built.form.resources = { Font: { [text.fontName]: text.font } };
    return built;
  }
  if (ft === 'Ch') return form([], inherited('V') !== undefined ? 'a list box’s items are not drawn' : undefined);
  return form([]);
}

/** How many widgets the widget's field has (a widget merged with its field: 1). */
function kidCount(doc: PDFDocument, annot: PDFDict): number {
  if (annot.has(name('T')) || !annot.has(name('Parent'))) return 1;
  const parent = annot.lookup(name('Parent'));
  const kids = parent instanceof PDFDict ? parent.lookup(name('Kids')) : undefined;
  return kids instanceof PDFArray ? kids.size() : 1;
}

/**
 * The mark of a checked box in a w×h box, by the ZapfDingbats character MK CA
 * names (4 check, 8 cross, l dot, n square, others as a check).
 */
function mark(ch: string, w: number, h: number, colour: number[] | null, intent: IntentSpace): string[] {
  const s = Math.min(w, h);
  const cx = w / 2;
  const cy = h / 2;
  const r = s * 0.3;
  const stroke = colourOp(colour ?? [0], true, intent)!;
  const fill = colourOp(colour ?? [0], false, intent)!;
  switch (ch) {
    case '8':
      return [stroke, `${n(Math.max(0.5, s / 10))} w 1 J`, `${n(cx - r)} ${n(cy - r)} m ${n(cx + r)} ${n(cy + r)} l ${n(cx - r)} ${n(cy + r)} m ${n(cx + r)} ${n(cy - r)} l S`];
    case 'l': {
      const k = 0.5523 * r;
      return [fill, `${n(cx + r)} ${n(cy)} m ${n(cx + r)} ${n(cy + k)} ${n(cx + k)} ${n(cy + r)} ${n(cx)} ${n(cy + r)} c ${n(cx - k)} ${n(cy + r)} ${n(cx - r)} ${n(cy + k)} ${n(cx - r)} ${n(cy)} c ${n(cx - r)} ${n(cy - k)} ${n(cx - k)} ${n(cy - r)} ${n(cx)} ${n(cy - r)} c ${n(cx + k)} ${n(cy - r)} ${n(cx + r)} ${n(cy - k)} ${n(cx + r)} ${n(cy)} c f`];
    }
    case 'n':
      return [fill, `${n(cx - r)} ${n(cy - r)} ${n(2 * r)} ${n(2 * r)} re f`];
    default:
      return [stroke, `${n(Math.max(0.5, s / 10))} w 1 J 1 j`, `${n(cx - r)} ${n(cy)} m ${n(cx - r / 3)} ${n(cy - r * 0.8)} l ${n(cx + r)} ${n(cy + r * 0.8)} l S`];
  }
}

const textOf = (o: unknown): string | undefined => textValue(o as never);
const numberOf = (o: unknown): number | undefined => (o && typeof o === 'object' && 'asNumber' in o ? Number((o as { asNumber(): number }).asNumber()) : undefined);
