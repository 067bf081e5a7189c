/**
 * The content stream operators (ISO 32000-1 Annex A, Table A.1) as data: for
 * each, how many operands it takes, whether they must all be numbers, and what
 * it does. The executor looks an operator up here, checks its operands
 * (taking the last `args` when there are more, skipping the operator when there
 * are too few or the wrong kind) and calls `run`. Operators that change
 * nothing preflight reads (dash, line cap, marked content…) are listed with a
 * no-op so the table is the complete vocabulary.
 */
import { isName, type Operand } from '../content-lexer';
import { PDFDict } from '@cantoo/pdf-lib';
import type { OperatorContext } from './operator-context';
import { applyExtGState, readExtGState } from './ext-gstate';
import { showText } from './text-show';
import { doXObject, inlineImage, runSoftMask } from './xobjects';

export interface Operator {
  /** Operands required (the last `args` are used when `numbers`). */
  args: number;
  /** All `args` operands must be finite numbers. */
  numbers: boolean;
  run(x: OperatorContext, o: Operand[]): void;
}

const op = (args: number, numbers: boolean, run: Operator['run']): Operator => ({ args, numbers, run });
const nothing = (): void => {};
const n = (o: Operand[], i: number): number => o[i] as number;

/**
 * Sets the text and text line matrices (Tm, BT). Both are the executor's own
 * (nothing else holds them), so they are written in place: text-heavy pages
 * set them tens of thousands of times.
 */
function setTextMatrices(x: OperatorContext, a: number, b: number, c: number, d: number, e: number, f: number): void {
  const l = x.tlm;
  const m = x.tm;
  l[0] = m[0] = a;
  l[1] = m[1] = b;
  l[2] = m[2] = c;
  l[3] = m[3] = d;
  l[4] = m[4] = e;
  l[5] = m[5] = f;
}

/** Td: moves to the start of the next line, offset from the start of the current one. */
function moveText(x: OperatorContext, tx: number, ty: number): void {
  const l = x.tlm;
  setTextMatrices(x, l[0], l[1], l[2], l[3], tx * l[0] + ty * l[2] + l[4], tx * l[1] + ty * l[3] + l[5]);
}

function setFont(x: OperatorContext, o: Operand[]): void {
  const size = o[o.length - 1];
  const key = o[o.length - 2];
  if (typeof size !== 'number' || !isName(key)) return;
  const { obj, objectNumber } = x.resource('Font', key.name);
  x.gs.font = obj instanceof PDFDict ? x.run.fontMetrics(obj) : null;
  x.gs.fontObjectNumber = objectNumber;
  x.gs.fontSize = size;
}

function setExtGState(x: OperatorContext, o: Operand[]): void {
  const key = o[o.length - 1];
  if (!isName(key)) return;
  const { obj } = x.resource('ExtGState', key.name);
  if (!(obj instanceof PDFDict)) return;
  const e = readExtGState(x.run.context, obj);
  if (e.font) {
    x.gs.font = x.run.fontMetrics(e.font.dict);
    x.gs.fontObjectNumber = e.font.objectNumber;
    x.gs.fontSize = e.font.size;
  }
  const mask = applyExtGState(x.gs, e);
  if (mask) runSoftMask(x, mask);
}

function setColourSpace(x: OperatorContext, o: Operand[], fill: boolean): void {
  const space = x.run.colourSpaces.ofOperand(o[o.length - 1], x.resources);
  if (space) x.setSpace(fill, space);
}

function nextLine(x: OperatorContext): void {
  moveText(x, 0, -x.gs.leading);
}

const table: Record<string, Operator> = {
  // General graphics state
  w: op(1, true, (x, o) => {
    if (n(o, 0) >= 0) x.gs.lineWidth = n(o, 0);
  }),
  J: op(1, false, nothing),
  j: op(1, false, nothing),
  M: op(1, false, nothing),
  d: op(2, false, nothing),
  ri: op(1, false, nothing),
  i: op(1, false, nothing),
  gs: op(1, false, setExtGState),
  // Special graphics state
  q: op(0, false, (x) => x.save()),
  Q: op(0, false, (x) => x.restore()),
  cm: op(6, true, (x, o) => x.concat([n(o, 0), n(o, 1), n(o, 2), n(o, 3), n(o, 4), n(o, 5)])),
  // Path construction
  m: op(2, true, (x, o) => x.point(n(o, 0), n(o, 1))),
  l: op(2, true, (x, o) => x.point(n(o, 0), n(o, 1))),
  c: op(6, true, (x, o) => {
    x.point(n(o, 0), n(o, 1));
    x.point(n(o, 2), n(o, 3));
    x.point(n(o, 4), n(o, 5));
  }),
  v: op(4, true, (x, o) => {
    x.point(n(o, 0), n(o, 1));
    x.point(n(o, 2), n(o, 3));
  }),
  y: op(4, true, (x, o) => {
    x.point(n(o, 0), n(o, 1));
    x.point(n(o, 2), n(o, 3));
  }),
  h: op(0, false, nothing),
  re: op(4, true, (x, o) => x.rect(n(o, 0), n(o, 1), n(o, 2), n(o, 3))),
  // Path painting
  S: op(0, false, (x) => x.endPath(false, true)),
  s: op(0, false, (x) => x.endPath(false, true)),
  f: op(0, false, (x) => x.endPath(true, false)),
  F: op(0, false, (x) => x.endPath(true, false)),
  'f*': op(0, false, (x) => x.endPath(true, false)),
  B: op(0, false, (x) => x.endPath(true, true)),
  'B*': op(0, false, (x) => x.endPath(true, true)),
  b: op(0, false, (x) => x.endPath(true, true)),
  'b*': op(0, false, (x) => x.endPath(true, true)),
  n: op(0, false, (x) => x.endPath(false, false)),
  // Clipping
  W: op(0, false, (x) => x.clip()),
  'W*': op(0, false, (x) => x.clip()),
  // Text objects
  BT: op(0, false, (x) => setTextMatrices(x, 1, 0, 0, 1, 0, 0)),
  ET: op(0, false, nothing),
  // Text state
  Tc: op(1, true, (x, o) => (x.gs.charSpacing = n(o, 0))),
  Tw: op(1, true, (x, o) => (x.gs.wordSpacing = n(o, 0))),
  Tz: op(1, true, (x, o) => (x.gs.hScale = n(o, 0) / 100)),
  TL: op(1, true, (x, o) => (x.gs.leading = n(o, 0))),
  Tf: op(2, false, setFont),
  Tr: op(1, true, (x, o) => (x.gs.render = Math.trunc(n(o, 0)))),
  Ts: op(1, true, (x, o) => (x.gs.rise = n(o, 0))),
  // Text positioning
  Td: op(2, true, (x, o) => moveText(x, n(o, 0), n(o, 1))),
  TD: op(2, true, (x, o) => {
    x.gs.leading = -n(o, 1);
    moveText(x, n(o, 0), n(o, 1));
  }),
  Tm: op(6, true, (x, o) => setTextMatrices(x, n(o, 0), n(o, 1), n(o, 2), n(o, 3), n(o, 4), n(o, 5))),
  'T*': op(0, false, nextLine),
  // Text showing
  Tj: op(1, false, (x, o) => showText(x, o, o.length - 1)),
  TJ: op(1, false, (x, o) => {
    const items = o[o.length - 1];
    if (Array.isArray(items)) showText(x, items, 0);
  }),
  "'": op(1, false, (x, o) => {
    nextLine(x);
    showText(x, o, o.length - 1);
  }),
  '"': op(3, false, (x, o) => {
    const aw = o[o.length - 3];
    const ac = o[o.length - 2];
    if (typeof aw === 'number' && Number.isFinite(aw)) x.gs.wordSpacing = aw;
    if (typeof ac === 'number' && Number.isFinite(ac)) x.gs.charSpacing = ac;
    nextLine(x);
    showText(x, o, o.length - 1);
  }),
  // Type 3 fonts: d1 glyphs take their colour from the text, so colour operators are ignored.
  d0: op(0, false, nothing),
  d1: op(0, false, (x) => (x.frame.uncoloured = true)),
  // Colour
  CS: op(1, false, (x, o) => setColourSpace(x, o, false)),
  cs: op(1, false, (x, o) => setColourSpace(x, o, true)),
  SC: op(0, false, (x, o) => x.setColour(false, o)),
  SCN: op(0, false, (x, o) => x.setColour(false, o)),
  sc: op(0, false, (x, o) => x.setColour(true, o)),
  scn: op(0, false, (x, o) => x.setColour(true, o)),
  G: op(1, true, (x, o) => x.setDevice(false, 'DeviceGray', o)),
  g: op(1, true, (x, o) => x.setDevice(true, 'DeviceGray', o)),
  RG: op(3, true, (x, o) => x.setDevice(false, 'DeviceRGB', o)),
  rg: op(3, true, (x, o) => x.setDevice(true, 'DeviceRGB', o)),
  K: op(4, true, (x, o) => x.setDevice(false, 'DeviceCMYK', o)),
  k: op(4, true, (x, o) => x.setDevice(true, 'DeviceCMYK', o)),
  // Shading, images, XObjects
  sh: op(1, false, (x, o) => {
    const key = o[o.length - 1];
    if (isName(key)) x.paintShading(x.resource('Shading', key.name).obj);
  }),
  BI: op(0, false, (x, o) => inlineImage(x, o[0])),
  Do: op(1, false, (x, o) => {
    const key = o[o.length - 1];
    if (isName(key)) doXObject(x, key.name);
  }),
  // Marked content and compatibility sections
  MP: op(1, false, nothing),
  DP: op(2, false, nothing),
  BMC: op(1, false, nothing),
  BDC: op(2, false, nothing),
  EMC: op(0, false, nothing),
  BX: op(0, false, nothing),
  EX: op(0, false, nothing),
};

export const OPERATORS: ReadonlyMap<string, Operator> = new Map(Object.entries(table));
