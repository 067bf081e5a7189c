/**
 * Runs one content stream (a page, form, pattern cell, glyph procedure, soft
 * mask or annotation appearance) against its resources and graphics state.
 * Operators are looked up in the table of operators.ts, whose handlers call
 * the methods here; nested streams get an executor of their own, so an
 * unbalanced `Q` in a form cannot pop its caller's state.
 *
 * It tracks the current path's bounding box in page space (control points
 * included: a safe, cheap bound) and records paints through the page
 * collector according to the frame (what this stream contributes).
 */
import { PDFDict, PDFRef, PDFStream, type PDFObject } from '@cantoo/pdf-lib';
import type { Operand, Operation } from '../content-lexer';
import { getArray, getBool, getDict, getName, name, numbersOf, resolve } from '../pdf-objects';
import { rectFrom, type Rect } from '../page-boxes';
import { innermost, InterpretStop, type DocumentRun } from './document-run';
import type { Frame, Within } from './types';
import { GraphicsState, initialColour } from './graphics-state';
import type { ColourSpaceInfo, Matrix, ObjectKind, PaintState, PaintSummary } from './types';
import { intersectBoxes, IDENTITY, matrixFrom, minScale, multiply, transformBox } from './matrix';
import type { OperatorContext } from './operator-context';
import { OPERATORS } from './operators';
import { idOf } from './page-collector';
import { patternInfo, patternPaint, runTilingPattern } from './patterns';
import { shadingInks } from './shading-inks';

const MAX_STACK = 1024;
const NORMAL_BLEND = new Set(['Normal', 'Compatible']);
type Category = 'Font' | 'XObject' | 'ExtGState' | 'ColorSpace' | 'Pattern' | 'Shading' | 'Properties';

let strict = false;
/** Tests turn this on so a fault in a handler fails the test instead of being skipped like a malformed operator. */
export function setStrictInterpretation(on: boolean): void {
  strict = on;
}
export const isStrictInterpretation = (): boolean => strict;

export class Executor implements OperatorContext {
  gs: GraphicsState;
  private readonly stack: GraphicsState[] = [];
  private readonly categories = new Map<Category, PDFDict | undefined>();
  private readonly devices = new Map<string, ColourSpaceInfo>();

  // Current path, in page space.
  private px0 = Infinity;
  private py0 = Infinity;
  private px1 = -Infinity;
  private py1 = -Infinity;
  private clipPending = false;

  // Text object state (not part of the graphics state: BT resets it).
  readonly tm: Matrix = [1, 0, 0, 1, 0, 0];
  readonly tlm: Matrix = [1, 0, 0, 1, 0, 0];

  constructor(
    readonly run: DocumentRun,
    readonly resources: PDFDict | undefined,
    gs: GraphicsState,
    readonly frame: Frame,
  ) {
    this.gs = gs;
  }

  get pageNumber(): number {
    return this.run.page.page;
  }

  execute(source: Iterable<Operation>): void {
    const run = this.run;
    const page = run.page;
    const observer = run.observer;
    for (const operation of source) {
      if (++run.ops > run.maxOperations) throw new InterpretStop('operations', `more than ${run.maxOperations} content operations in the document`);
      if ((run.ops & 1023) === 0 && Date.now() > run.deadline) throw new InterpretStop('time', 'the time budget for reading page content ran out');
      page.operations++;
      observer?.operation(this, operation);
      const spec = OPERATORS.get(operation.op);
      if (spec === undefined) continue;
      let o = operation.operands;
      if (o.length < spec.args) continue;
      if (spec.numbers) {
        if (o.length > spec.args) o = o.slice(o.length - spec.args);
        if (!allFinite(o)) continue;
      }
      try {
        spec.run(this, o);
      } catch (err) {
        // A malformed operand or object skips its operator, as readers do.
        if (err instanceof InterpretStop || strict) throw err;
      }
    }
  }

  // ---------------------------------------------------------------- state

  save(): void {
    if (this.stack.length < MAX_STACK) this.stack.push(this.gs.clone());
  }

  restore(): void {
    const g = this.stack.pop();
    if (g) this.gs = g;
  }

  concat(m: Matrix): void {
    this.gs.ctm = multiply(m, this.gs.ctm);
  }

  /** A resource dictionary entry: the object and the object number it was reached through. */
  resource(category: Category, key: string): { obj: PDFObject | undefined; objectNumber: number | null } {
    let dict = this.categories.get(category);
    if (dict === undefined && !this.categories.has(category)) {
      dict = getDict(this.resources, category);
      this.categories.set(category, dict);
    }
    const raw = dict?.get(name(key));
    return { obj: raw instanceof PDFRef ? this.run.context.lookup(raw) : raw, objectNumber: raw instanceof PDFRef ? raw.objectNumber : null };
  }

  // ---------------------------------------------------------------- colour

  /** A device space by name, or the Default* space of the resources replacing it. */
  device(family: 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK'): ColourSpaceInfo {
    let s = this.devices.get(family);
    if (!s) {
      s = this.run.colourSpaces.ofOperand({ name: family }, this.resources)!;
      this.devices.set(family, s);
    }
    return s;
  }

  setSpace(fill: boolean, space: ColourSpaceInfo): void {
    if (this.frame.uncoloured) return;
    if (fill) this.gs.setFill(space, initialColour(space), null);
    else this.gs.setStroke(space, initialColour(space), null);
  }

  /** sc/scn/SC/SCN: components, and a pattern name last for Pattern spaces. */
  setColour(fill: boolean, operands: Operand[]): void {
    if (this.frame.uncoloured) return;
    const comps: number[] = [];
    let pattern: PDFObject | null = null;
    for (const o of operands) {
      if (typeof o === 'number') {
        if (Number.isFinite(o)) comps.push(o);
      } else if (typeof o === 'object' && o !== null && 'name' in o) {
        pattern = this.resource('Pattern', o.name).obj ?? null;
      }
    }
    const space = fill ? this.gs.fillSpace : this.gs.strokeSpace;
    if (fill) this.gs.setFill(space, comps, pattern);
    else this.gs.setStroke(space, comps, pattern);
  }

  setDevice(fill: boolean, family: 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK', operands: Operand[]): void {
    if (this.frame.uncoloured) return;
    // A copy: the operands array is the lexer's, refilled for the next operation (reusedOperations).
    const comps = operands.slice() as number[];
    if (fill) this.gs.setFill(this.device(family), comps, null);
    else this.gs.setStroke(this.device(family), comps, null);
  }

  fillPaint(): PaintSummary {
    const g = this.gs;
    if (g.fillPaint) return g.fillPaint;
    g.fillPaint = g.fillPattern ? patternPaint(this, g.fillPattern, g.fillSpace, g.fillComps) : this.run.paints.flat(g.fillSpace, g.fillComps);
    return g.fillPaint;
  }

  strokePaint(): PaintSummary {
    const g = this.gs;
    if (g.strokePaint) return g.strokePaint;
    g.strokePaint = g.strokePattern ? patternPaint(this, g.strokePattern, g.strokeSpace, g.strokeComps) : this.run.paints.flat(g.strokeSpace, g.strokeComps);
    return g.strokePaint;
  }

  fillState(): PaintState {
    return this.run.states.fill(this.gs);
  }

  strokeState(): PaintState {
    return this.run.states.stroke(this.gs);
  }

  // ---------------------------------------------------------------- paths

  point(x: number, y: number): void {
    const m = this.gs.ctm;
    const px = m[0] * x + m[2] * y + m[4];
    const py = m[1] * x + m[3] * y + m[5];
    if (px < this.px0) this.px0 = px;
    if (px > this.px1) this.px1 = px;
    if (py < this.py0) this.py0 = py;
    if (py > this.py1) this.py1 = py;
  }

  rect(x: number, y: number, w: number, h: number): void {
    this.point(x, y);
    this.point(x + w, y);
    this.point(x + w, y + h);
    this.point(x, y + h);
  }

  clip(): void {
    this.clipPending = true;
  }

  /** A path-painting operator: paints the path (or not, for `n`), applies a pending clip, starts a new path. */
  endPath(fill: boolean, stroke: boolean): void {
    if (this.px0 <= this.px1 && this.py0 <= this.py1) {
      const box: Rect = [this.px0, this.py0, this.px1, this.py1];
      if (fill && this.frame.vectors) this.paintFill(box, 'vector');
      if (stroke && this.frame.vectors) this.paintStroke(box);
      if (this.clipPending) this.gs.clip = this.gs.clip ? intersectBoxes(this.gs.clip, box) : box;
    }
    this.clipPending = false;
    this.px0 = this.py0 = Infinity;
    this.px1 = this.py1 = -Infinity;
  }

  /** Fills an area with the fill colour: a flat colour, a shading pattern, or a tiling pattern's cells. */
  paintFill(box: Rect, kind: 'vector' | 'text'): void {
    if (!this.frame.ink) return;
    const g = this.gs;
    const paint = this.fillPaint();
    const state = this.fillState();
    if (g.fillPattern) {
      const p = patternInfo(this, g.fillPattern);
      if (p?.shading) this.recordPaint('shading', paint, state, p.shading.space, box);
      else this.recordPaint(kind, paint, state, g.fillSpace, box);
      if (p?.tiling) runTilingPattern(this, p);
    } else this.recordPaint(kind, paint, state, g.fillSpace, box);
    if (kind === 'vector' && this.frame.content && !paint.white) this.run.page.visible(box, null);
  }

  private paintStroke(box: Rect): void {
    if (!this.frame.ink) return;
    const g = this.gs;
    const paint = this.strokePaint();
    const state = this.strokeState();
    const m = g.ctm;
    const half = (g.lineWidth * Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]))) / 2;
    const grown: Rect = [box[0] - half, box[1] - half, box[2] + half, box[3] + half];
    const widthPt = g.lineWidth * minScale(m) * this.run.userUnit;
    this.run.page.stroke(widthPt, paint, state, grown);
    if (g.strokePattern) {
      const p = patternInfo(this, g.strokePattern);
      this.recordPaint(p?.shading ? 'shading' : 'vector', paint, state, p?.shading?.space ?? g.strokeSpace, grown);
      if (p?.tiling) runTilingPattern(this, p);
    } else this.recordPaint('vector', paint, state, g.strokeSpace, grown);
    if (this.frame.content && !paint.white) this.run.page.visible(grown, null);
  }

  /** Colour use, coverage and transparency of one painted object. */
  recordPaint(kind: ObjectKind, paint: PaintSummary, state: PaintState, space: ColourSpaceInfo, box: Rect): void {
    const page = this.run.page;
    this.run.notable++;
    page.colour(kind, space, box, this.frame.within);
    page.area(kind, paint, state, box, this.frame.within);
    this.transparency(state, box);
  }

  transparency(state: PaintState, box: Rect): void {
    if (state.alpha === 1 && !state.softMask && NORMAL_BLEND.has(state.blendMode)) return;
    const page = this.run.page;
    if (state.alpha < 1) page.transparencyUse('alpha', box, { value: state.alpha });
    if (!NORMAL_BLEND.has(state.blendMode)) page.transparencyUse('blend-mode', box, { value: state.blendMode });
    if (state.softMask) page.transparencyUse('soft-mask', box);
  }

  /** `sh`: the shading fills the clip, else its own BBox, else the page's CropBox. */
  paintShading(shadingObj: PDFObject | undefined): void {
    const dict = shadingObj instanceof PDFStream ? shadingObj.dict : shadingObj instanceof PDFDict ? shadingObj : undefined;
    if (!dict || !this.frame.ink || !this.frame.vectors) return;
    const space = this.run.colourSpaces.ofObject(dict.get(name('ColorSpace')), this.resources);
    const own = rectFrom(resolve(this.run.context, dict.get(name('BBox'))));
    const box = this.gs.clip ?? (own ? transformBox(this.gs.ctm, own[0], own[1], own[2], own[3]) : this.run.cropBox);
    const paint = this.run.paints.fromInks(space, `sh${idOf(dict)}`, shadingInks(this.run.context, dict, space));
    this.recordPaint('shading', paint, this.fillState(), space, box);
    if (this.frame.content) this.run.page.visible(box, null);
  }

  // ---------------------------------------------------------------- nested streams

  /** Runs a nested stream with its own executor; an undecodable one is a limit and its fonts count as used. */
  runNested(stream: PDFStream, what: string, kind: Within, gs: GraphicsState, resources: PDFDict | undefined, frame: Partial<Frame> = {}): void {
    const run = this.run;
    if (!run.enter(stream, what)) return;
    try {
      const child = new Executor(run, resources, gs, { ...this.frame, ...frame, within: innermost(this.frame.within, kind), baseCtm: gs.ctm });
      const source = run.sourceOf(stream);
      run.observer?.enterStream?.(stream, kind, child);
      try {
        if ('reason' in source) {
          run.page.limit('undecodable-content', `${what} could not be decoded (${source.reason})`);
          run.unreadFonts(resources);
        } else child.execute(source.ops);
      } finally {
        run.observer?.leaveStream?.(stream, kind);
      }
    } finally {
      run.leave(stream);
    }
  }

  /**
   * A form XObject, an annotation appearance or a soft mask group: /Matrix,
   * /BBox clip, transparency group, own or inherited resources. `base` is the
   * state it is painted in (the current one for `Do`).
   */
  paintForm(form: PDFStream, objectNumber: number | null, kind: Within = 'form', base: GraphicsState = this.gs, frame: Partial<Frame> = {}): void {
    const d = form.dict;
    const m = matrixFrom(numbersOf(getArray(d, 'Matrix'))) ?? (IDENTITY as Matrix);
    const gs = base.clone();
    gs.ctm = multiply(m, base.ctm);
    const bbox = rectFrom(resolve(this.run.context, d.get(name('BBox'))));
    const placed = bbox ? transformBox(gs.ctm, bbox[0], bbox[1], bbox[2], bbox[3]) : null;
    if (placed) gs.clip = gs.clip ? intersectBoxes(gs.clip, placed) : placed;
    const group = getDict(d, 'Group');
    if (group && getName(group, 'S') === 'Transparency' && (frame.ink ?? this.frame.ink)) {
      const cs = group.get(name('CS'));
      this.run.page.transparencyUse('group', placed, {
        groupColourSpace: cs !== undefined ? this.run.colourSpaces.ofObject(cs, this.resources) : null,
        isolated: getBool(group, 'I') === true,
        knockout: getBool(group, 'K') === true,
      });
    }
    const resources = getDict(d, 'Resources') ?? this.resources;
    const what =
      kind === 'softmask' ? 'a soft mask group' : kind === 'annotation' ? 'an annotation appearance' : objectNumber !== null ? `form XObject ${objectNumber}` : 'a form XObject';
    this.runNested(form, what, kind, gs, resources, frame);
  }

  /** The current text rendering matrix without the font size: Tm × CTM. */
  textMatrix(): Matrix {
    return multiply(this.tm, this.gs.ctm);
  }
}

function allFinite(o: Operand[]): boolean {
  for (let i = 0; i < o.length; i++) {
    const v = o[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  }
  return true;
}
