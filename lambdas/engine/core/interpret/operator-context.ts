/**
 * What an operator's handler (operators.ts) and the helpers it calls
 * (text-show.ts, xobjects.ts, patterns.ts) may read and do on the executor
 * running its stream. The executor implements it; the handlers name this
 * instead of the executor, which looks them up in its operator table, so the
 * table and the executor do not import each other.
 */
import type { PDFDict, PDFObject, PDFStream } from '@cantoo/pdf-lib';
import type { Operand } from '../content-lexer';
import type { Rect } from '../page-boxes';
import type { DocumentRun } from './document-run';
import type { GraphicsState } from './graphics-state';
import type { ObservedStream } from './observer';
import type { ColourSpaceInfo, Frame, Matrix, ObjectKind, PaintState, PaintSummary, Within } from './types';

type DeviceFamily = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';

export interface OperatorContext extends ObservedStream {
  gs: GraphicsState;
  readonly run: DocumentRun;
  /** Text matrix and text line matrix (not part of the graphics state: BT resets them); changed in place. */
  readonly tm: Matrix;
  readonly tlm: Matrix;

  save(): void;
  restore(): void;
  concat(m: Matrix): void;

  setSpace(fill: boolean, space: ColourSpaceInfo): void;
  setColour(fill: boolean, operands: Operand[]): void;
  setDevice(fill: boolean, family: DeviceFamily, operands: Operand[]): void;
  fillPaint(): PaintSummary;
  strokePaint(): PaintSummary;
  fillState(): PaintState;
  strokeState(): PaintState;

  point(x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  endPath(fill: boolean, stroke: boolean): void;
  paintFill(box: Rect, kind: 'vector' | 'text'): void;
  recordPaint(kind: ObjectKind, paint: PaintSummary, state: PaintState, space: ColourSpaceInfo, box: Rect): void;
  paintShading(shadingObj: PDFObject | undefined): void;

  runNested(stream: PDFStream, what: string, kind: Within, gs: GraphicsState, resources: PDFDict | undefined, frame?: Partial<Frame>): void;
  paintForm(form: PDFStream, objectNumber: number | null, kind?: Within, base?: GraphicsState, frame?: Partial<Frame>): void;
  textMatrix(): Matrix;
}
