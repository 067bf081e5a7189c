/**
 * Moving a page's drawing into a new user space: the shared step of the fixes
 * that change page geometry (pages.unrotate bakes /Rotate in, pages.scale-to-trim
 * scales). Given M, which maps the old user space to the new one, the page must
 * look the same in the new space: its content is drawn through `M cm`, the
 * patterns it paints with get M in their matrices, and its annotations move
 * (Rect, QuadPoints and the other coordinate arrays) with their appearances
 * turned when M turns. Boxes are the caller's business.
 *
 * Why not move the content into a form XObject: marked content with MCIDs in
 * the page's own stream ties it to the structure tree (tagged PDF); inside a
 * form it would need a rewritten structure tree. Wrapping in place keeps the
 * tags and the reading order, and the q/Q guard (wrapPageContent) stops an
 * unbalanced original from popping the new matrix.
 */
import { PDFArray, PDFDict, PDFNumber, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { operations } from '../../core/content-lexer';
import type { Matrix } from '../../core/interpret/types';
import { IDENTITY, matrixFrom, multiply, transformBox } from '../../core/interpret/matrix';
import { shortNumber } from '../../core/content-writer';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { type Rect, rectFrom } from '../../core/page-boxes';
import { getDict, getNumber, name, numbersOf, resolve, resolvedItems } from '../../core/pdf-objects';

export type { Matrix };

/** PDF numbers as content operands: short (4 decimals), no exponent notation. */
export const fmt = shortNumber;
export const matrixOps = (m: Readonly<Matrix>): string => `${m.map(fmt).join(' ')} cm`;

export function transformPoint(m: Readonly<Matrix>, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function transformRect(m: Readonly<Matrix>, r: Rect): Rect {
  return transformBox(m, r[0], r[1], r[2], r[3]);
}

/**
 * How the page's content nests q/Q: the lowest depth reached (negative when it
 * restores more states than it saved) and the depth at its end. Null when a
 * content stream cannot be decoded (then the page cannot be wrapped safely).
 */
export function contentNesting(context: PDFContext, page: PDFDict): { lowest: number; final: number; streams: PDFObject[] } | null {
  const raw = page.get(name('Contents'));
  const streams: PDFObject[] = [];
  const resolved = resolve(context, raw);
  if (resolved instanceof PDFArray) {
    for (let i = 0; i < resolved.size(); i++) streams.push(resolved.get(i));
  } else if (raw !== undefined) streams.push(raw);
  // The streams form one content stream (an operator may be split across them): lex them joined.
  const joined = contentBytes(context, raw);
  if (joined === null) return null;
  let depth = 0;
  let lowest = 0;
  for (const op of operations(joined)) {
    if (op.op === 'q') depth++;
    else if (op.op === 'Q') {
      depth--;
      if (depth < lowest) lowest = depth;
    }
  }
  return { lowest, final: depth, streams };
}

/**
 * Wraps the page's content: `q <before>` ahead of it, and after it enough `Q`
 * to close everything it left open plus our own q, then `after` (drawn in the
 * page's own default state). Extra `q` after `before` absorb the surplus `Q` of
 * an unbalanced original, so it cannot pop what `before` set. Returns false
 * (and changes nothing) when the content cannot be decoded.
 */
export function wrapPageContent(context: PDFContext, page: PDFDict, before: string, after = ''): boolean {
  const nesting = contentNesting(context, page);
  if (!nesting) return false;
  const guard = -nesting.lowest;
  const open = `q\n${before}\n${'q\n'.repeat(guard)}`;
  const close = `\n${'Q\n'.repeat(1 + guard + nesting.final)}${after}`;
  const head = context.register(context.flateStream(open));
  const tail = context.register(context.flateStream(close));
  page.set(name('Contents'), context.obj([head, ...nesting.streams, tail]));
  return true;
}

/**
 * Moves a page's drawing through M (old user space → new). `turn` is the
 * clockwise rotation M applies (0, 90, 180, 270): annotation appearances turn
 * with the page unless they are flagged NoRotate. Returns false when the
 * content cannot be decoded (nothing is changed then).
 */
export function transformPage(context: PDFContext, page: PDFDict, m: Matrix, turn: number, seen: AppearanceLedger): boolean {
  if (!wrapPageContent(context, page, matrixOps(m))) return false;
  transformPatterns(context, page, m);
  transformAnnotations(context, page, m, turn, seen);
  return true;
}

/**
 * A pattern's matrix maps pattern space to the default space of the page it is
 * painted on (ISO 32000-1 8.7.2); the default space has just changed, so the
 * page's own patterns need M appended. They may be shared with other pages or
 * forms (whose patterns are relative to the form space and already follow the
 * CTM), so the page gets copies in its own Resources.
 */
function transformPatterns(context: PDFContext, page: PDFDict, m: Matrix): void {
  const resources = inheritedResources(page);
  const patterns = getDict(resources, 'Pattern');
  if (!resources || !patterns || patterns.entries().length === 0) return;
  const copy = context.obj({}) as PDFDict;
  for (const [key, value] of patterns.entries()) {
    const pattern = resolve(context, value);
    const dict = pattern instanceof PDFStream ? pattern.dict : pattern instanceof PDFDict ? pattern : undefined;
    if (!pattern || !dict) {
      copy.set(key, value);
      continue;
    }
    const clone = pattern.clone(context);
    const cloneDict = clone instanceof PDFStream ? clone.dict : (clone as PDFDict);
    const own = matrixFrom(numbersOf(getArrayOf(dict, 'Matrix'))) ?? (IDENTITY as Matrix);
    cloneDict.set(name('Matrix'), context.obj(multiply(own, m).map(round6)));
    copy.set(key, context.register(clone));
  }
  const ownResources = resources.clone(context);
  ownResources.set(name('Pattern'), copy);
  page.set(name('Resources'), ownResources);
}

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

function getArrayOf(dict: PDFDict, key: string): PDFArray | undefined {
  const v = dict.lookup(name(key));
  return v instanceof PDFArray ? v : undefined;
}

/** Appearance streams already turned, with the turn they got (shared appearances are turned once). */
export type AppearanceLedger = Map<PDFStream, number>;

/** Annotation flags (ISO 32000-1 12.5.3). */
const NO_ROTATE = 16;
/** Entries holding flat x, y pairs in page space. */
const POINT_ARRAYS = ['QuadPoints', 'Vertices', 'L', 'CL'];

function transformAnnotations(context: PDFContext, page: PDFDict, m: Matrix, turn: number, seen: AppearanceLedger): void {
  for (const annot of resolvedItems(context, page.get(name('Annots')))) {
    if (!(annot instanceof PDFDict)) continue;
    const rect = rectFrom(annot.lookup(name('Rect')));
    const noRotate = ((getNumber(annot, 'F') ?? 0) & NO_ROTATE) !== 0 && turn !== 0;
    if (rect) {
      let moved = transformRect(m, rect);
      if (noRotate) {
        // A NoRotate annotation stays upright, pinned at its upper-left corner (12.5.3): keep its size there.
        const [x, y] = transformPoint(m, rect[0], rect[3]);
        const scale = Math.hypot(m[0], m[1]);
        moved = [x, y - (rect[3] - rect[1]) * scale, x + (rect[2] - rect[0]) * scale, y];
      }
      annot.set(name('Rect'), context.obj(moved.map(round6)));
    }
    for (const key of POINT_ARRAYS) {
      const arr = annot.lookup(name(key));
      if (arr instanceof PDFArray) annot.set(name(key), transformedPoints(context, arr, m) ?? arr);
    }
    const ink = annot.lookup(name('InkList'));
    if (ink instanceof PDFArray) {
      const paths: PDFObject[] = [];
      for (let i = 0; i < ink.size(); i++) {
        const path = ink.lookup(i);
        paths.push(path instanceof PDFArray ? (transformedPoints(context, path, m) ?? path) : ink.get(i));
      }
      annot.set(name('InkList'), context.obj(paths));
    }
    if (turn !== 0 && !noRotate) {
      turnAppearances(context, annot, turn, seen);
      turnWidgetRotation(annot, turn);
    }
  }
}

function transformedPoints(context: PDFContext, arr: PDFArray, m: Matrix): PDFArray | null {
  const n = numbersOf(arr);
  if (!n || n.length % 2 !== 0 || n.some((v) => !Number.isFinite(v))) return null;
  const out: number[] = [];
  for (let i = 0; i < n.length; i += 2) out.push(...transformPoint(m, n[i]!, n[i + 1]!).map(round6));
  return context.obj(out);
}

/** The pure clockwise turn of `turn` degrees, as a matrix. */
export function turnMatrix(turn: number): Matrix {
  switch (((turn % 360) + 360) % 360) {
    case 90:
      return [0, -1, 1, 0, 0, 0];
    case 180:
      return [-1, 0, 0, -1, 0, 0];
    case 270:
      return [0, 1, -1, 0, 0, 0];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/**
 * Appearances are fitted into the Rect after their own Matrix (12.5.5), so a
 * turned Rect needs the appearance turned too: its Matrix gets the turn
 * appended. A stream shared by several annotations is turned once; one
 * already turned by a different angle is copied for this annotation.
 */
function turnAppearances(context: PDFContext, annot: PDFDict, turn: number, seen: AppearanceLedger): void {
  const ap = getDict(annot, 'AP');
  if (!ap) return;
  for (const key of ['N', 'R', 'D']) {
    const raw = ap.get(name(key));
    const value = resolve(context, raw);
    if (value instanceof PDFStream) {
      const turned = turnStream(context, value, turn, seen);
      if (turned !== value) ap.set(name(key), context.register(turned));
    } else if (value instanceof PDFDict) {
      for (const [state, v] of value.entries()) {
        const s = resolve(context, v);
        if (!(s instanceof PDFStream)) continue;
        const turned = turnStream(context, s, turn, seen);
        if (turned !== s) value.set(state, context.register(turned));
      }
    }
  }
}

function turnStream(context: PDFContext, stream: PDFStream, turn: number, seen: AppearanceLedger): PDFStream {
  const done = seen.get(stream);
  if (done === turn) return stream;
  const target = done === undefined ? stream : stream.clone(context);
  const own = matrixFrom(numbersOf(getArrayOf(stream.dict, 'Matrix'))) ?? (IDENTITY as Matrix);
  target.dict.set(name('Matrix'), context.obj(multiply(own, turnMatrix(turn)).map(round6)));
  seen.set(target, turn);
  return target;
}

/**
 * A widget's MK /R says how its appearance is turned relative to the page,
 * counterclockwise; a viewer that regenerates the appearance (NeedAppearances)
 * uses it. The page no longer turns, so the widget turns by that much less.
 */
function turnWidgetRotation(annot: PDFDict, turn: number): void {
  const mk = getDict(annot, 'MK');
  if (!mk) return;
  const r = getNumber(mk, 'R') ?? 0;
  const next = (((r - turn) % 360) + 360) % 360;
  if (next === 0) mk.delete(name('R'));
  else mk.set(name('R'), PDFNumber.of(next));
}
