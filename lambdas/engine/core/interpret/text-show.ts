/**
 * Text showing (Tj, TJ, ', "; ISO 32000-1 9.4.3–9.4.4): reads the codes of the
 * strings with the current font, advances by their widths with character and
 * word spacing, horizontal scaling and TJ adjustments, and records one text
 * run per operator: its box on the page, its effective size, how it is painted
 * and with what. Type 3 glyph procedures are run per glyph shown (what they
 * hold — images above all — is listed per draw, as pdfimages does), except
 * those already seen to record nothing.
 */
import { PDFStream } from '@cantoo/pdf-lib';
import type { Operand } from '../content-lexer';
import type { Rect } from '../page-boxes';
import { cidOf, readCode, TWO_BYTES } from './code-space';
import type { OperatorContext } from './operator-context';
import type { FontMetrics } from './font-metrics';
import type { GraphicsState } from './graphics-state';
import type { Matrix, TextGroup } from './types';
import { multiply, multiplyInto, transformBox, verticalScale } from './matrix';

const code = { code: 0, length: 0 };
/** The text rendering matrix of the run being recorded: only measured with, so one scratch matrix serves. */
const trm: Matrix = [1, 0, 0, 1, 0, 0];
const PAINTING: TextGroup['painting'][] = ['fill', 'stroke', 'fill-stroke', 'invisible', 'fill', 'stroke', 'fill-stroke', 'clip'];

/** How text in a rendering mode (Tr) is painted; a mode outside 0–7 is read as 0, as readers do. */
export function textPainting(render: number): TextGroup['painting'] {
  return PAINTING[render >= 0 && render <= 7 ? render : 0]!;
}

/** Whether a painting puts down its fill colour (modes 0, 2, 4, 6) and its stroke colour (1, 2, 5, 6). */
export const paintsFill = (painting: TextGroup['painting']): boolean => painting === 'fill' || painting === 'fill-stroke';
export const paintsStroke = (painting: TextGroup['painting']): boolean => painting === 'stroke' || painting === 'fill-stroke';

/**
 * Text's effective size in pt as it lands on the page: |Tf size| × the
 * vertical scale of the text rendering matrix (Tm × CTM) × UserUnit, a Type 3
 * font's FontMatrix included (sizeFactor). What preflight reports and the
 * text fixes judge by.
 */
export function effectiveTextSize(fontSize: number, textMatrix: Readonly<Matrix>, userUnit: number, font: FontMetrics): number {
  return Math.abs(fontSize) * verticalScale(textMatrix) * userUnit * font.sizeFactor;
}

/** Shows the strings (and, for TJ, the adjustments) of `items` from index `start`. */
export function showText(x: OperatorContext, items: readonly Operand[], start: number): void {
  const g = x.gs;
  const font = g.font;
  if (!font) return;
  const fs = g.fontSize;
  const th = font.vertical ? 1 : g.hScale;
  const tc = g.charSpacing;
  const tw = g.wordSpacing;
  const glyphProcs = font.type3 ? font.type3.procs : null;
  if (font.type3 && x.run.everyGlyph && !x.run.donePerPage.has(font.type3)) runEveryGlyph(x, font);
  // Forward advance along the writing direction, in unscaled text space.
  let adv = 0;
  let glyphs = 0;
  for (let i = start; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'number') {
      if (Number.isFinite(item)) adv -= (item / 1000) * fs * th;
      continue;
    }
    if (typeof item !== 'object' || item === null || !('bytes' in item)) continue;
    const bytes = item.bytes;
    if (font.kind !== 'cid') {
      const widths = font.widths;
      for (let k = 0; k < bytes.length; k++) {
        const b = bytes[k]!;
        if (glyphProcs && glyphProcs[b]) drawGlyph(x, font, b, adv);
        adv += (widths[b]! * fs + tc + (b === 32 ? tw : 0)) * th;
      }
      glyphs += bytes.length;
    } else {
      const twoByte = font.codeSpace === TWO_BYTES;
      for (let p = 0; p < bytes.length; ) {
        if (twoByte && p + 1 < bytes.length) {
          code.code = (bytes[p]! << 8) | bytes[p + 1]!;
          code.length = 2;
        } else readCode(bytes, p, font.codeSpace, code);
        p += code.length;
        let w: number;
        if (font.vertical) w = -font.verticalAdvance;
        else if (font.cidsUnknown) w = font.defaultWidth;
        else w = font.cidWidths.get(font.cmap ? cidOf(font.cmap, code.code) : code.code) ?? font.defaultWidth;
        adv += (w * fs + tc + (code.length === 1 && code.code === 32 ? tw : 0)) * th;
        glyphs++;
      }
    }
  }
  if (glyphs > 0) record(x, font, adv, glyphs);
  const tm = x.tm;
  if (font.vertical) {
    tm[4] -= adv * tm[2];
    tm[5] -= adv * tm[3];
  } else {
    tm[4] += adv * tm[0];
    tm[5] += adv * tm[1];
  }
}

function record(x: OperatorContext, font: FontMetrics, adv: number, glyphs: number): void {
  const g = x.gs;
  const run = x.run;
  const page = run.page;
  const fs = g.fontSize;
  multiplyInto(x.tm, g.ctm, trm);
  let box: Rect;
  if (font.vertical) {
    box = transformBox(trm, -Math.abs(fs) / 2, Math.min(0, -adv) + g.rise, Math.abs(fs) / 2, Math.max(0, -adv) + g.rise);
  } else {
    const a = g.rise + font.descent * fs;
    const b = g.rise + font.ascent * fs;
    box = transformBox(trm, Math.min(0, adv), Math.min(a, b), Math.max(0, adv), Math.max(a, b));
  }
  const sizePt = effectiveTextSize(fs, trm, run.userUnit, font);
  const painting = textPainting(g.render);
  const visible = painting !== 'invisible' && painting !== 'clip';
  run.notable++;
  page.font(font.dict, g.fontObjectNumber, sizePt, glyphs, visible);
  if (!x.frame.ink) return;
  const fills = paintsFill(painting);
  const strokes = paintsStroke(painting);
  const fill = fills ? x.fillPaint() : null;
  const stroke = strokes ? x.strokePaint() : null;
  page.textRun(font.dict, font.name, sizePt, painting, fill, stroke, fills || !strokes ? x.fillState() : x.strokeState(), box, x.frame.within);
  if (fills) x.paintFill(box, 'text');
  if (stroke) x.recordPaint('text', stroke, x.strokeState(), g.strokeSpace, box);
  if (visible && x.frame.content) page.visible(box, 'text');
}

/**
 * Every glyph procedure of a Type 3 font, once per page and without ink, for an observer that judges all of a
 * font's glyphs as conformance checkers do (veraPDF reads each CharProcs stream of a font that shows text).
 */
function runEveryGlyph(x: OperatorContext, font: FontMetrics): void {
  const type3 = font.type3!;
  x.run.donePerPage.add(type3);
  const charProcs = type3.charProcs;
  const run = new Set<PDFStream>();
  for (const [key] of charProcs?.entries() ?? []) {
    const proc = charProcs!.lookup(key);
    if (!(proc instanceof PDFStream) || run.has(proc)) continue;
    run.add(proc);
    x.runNested(proc, 'a Type 3 glyph procedure', 'type3', glyphState(x, font, 0), type3.resources ?? x.resources, { vectors: false, content: false, ink: false });
  }
}

/** Runs a Type 3 glyph procedure at the glyph's place. */
function drawGlyph(x: OperatorContext, font: FontMetrics, b: number, adv: number): void {
  const type3 = font.type3!;
  const proc = type3.procs[b]!;
  const run = x.run;
  if (run.trivialGlyphs.has(proc)) return;
  const before = run.notable;
  x.runNested(proc, 'a Type 3 glyph procedure', 'type3', glyphState(x, font, adv), type3.resources ?? x.resources, { vectors: false, content: false });
  if (run.notable === before) run.trivialGlyphs.add(proc);
}

/** The state a Type 3 glyph `adv` along the line runs in: CTM = FontMatrix × [size×Th 0 0 size advance rise] × Tm × CTM. */
function glyphState(x: OperatorContext, font: FontMetrics, adv: number): GraphicsState {
  const g = x.gs;
  const glyphSpace: Matrix = font.vertical ? [g.fontSize, 0, 0, g.fontSize, 0, -adv + g.rise] : [g.fontSize * g.hScale, 0, 0, g.fontSize, adv, g.rise];
  const gs = g.clone();
  gs.ctm = multiply(multiply(font.type3!.matrix, glyphSpace), x.textMatrix());
  return gs;
}
