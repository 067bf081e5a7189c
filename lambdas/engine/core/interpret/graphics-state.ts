/**
 * The graphics state the interpreter tracks (ISO 32000-1 8.4): CTM, colours,
 * line width, text state and the ExtGState parameters preflight judges
 * (overprint, alpha, blend mode, soft mask). `q` pushes a copy, `Q` pops it.
 *
 * Colours and matrices are replaced, never mutated, so a copy is shallow. The
 * paint and paint state of the current fill and stroke are computed lazily and
 * cached until the colour or ExtGState changes, so a page of text in one colour
 * builds each once.
 */
import type { PDFObject } from '@cantoo/pdf-lib';
import type { Rect } from '../page-boxes';
import { DEVICE_GRAY } from './colour-space-info';
import type { FontMetrics } from './font-metrics';
import type { ColourSpaceInfo, Matrix, PaintState, PaintSummary } from './types';
import { IDENTITY } from './matrix';

export class GraphicsState {
  ctm: Matrix = IDENTITY as Matrix;
  /** Bounding box of the clipping path in page space; null: no clip other than the page. */
  clip: Rect | null = null;

  fillSpace: ColourSpaceInfo = DEVICE_GRAY;
  fillComps: number[] = ZERO;
  /** The pattern object a `scn /P0` selected (fill colour is a pattern). */
  fillPattern: PDFObject | null = null;
  fillPaint: PaintSummary | null = null;
  strokeSpace: ColourSpaceInfo = DEVICE_GRAY;
  strokeComps: number[] = ZERO;
  strokePattern: PDFObject | null = null;
  strokePaint: PaintSummary | null = null;

  lineWidth = 1;

  font: FontMetrics | null = null;
  fontObjectNumber: number | null = null;
  fontSize = 0;
  charSpacing = 0;
  wordSpacing = 0;
  /** Tz / 100. */
  hScale = 1;
  leading = 0;
  render = 0;
  rise = 0;

  strokeOverprint = false;
  fillOverprint = false;
  overprintMode = 0;
  strokeAlpha = 1;
  fillAlpha = 1;
  blendMode = 'Normal';
  softMask = false;
  fillState: PaintState | null = null;
  strokeState: PaintState | null = null;

  clone(): GraphicsState {
    const g = new GraphicsState();
    g.ctm = this.ctm;
    g.clip = this.clip;
    g.fillSpace = this.fillSpace;
    g.fillComps = this.fillComps;
    g.fillPattern = this.fillPattern;
    g.fillPaint = this.fillPaint;
    g.strokeSpace = this.strokeSpace;
    g.strokeComps = this.strokeComps;
    g.strokePattern = this.strokePattern;
    g.strokePaint = this.strokePaint;
    g.lineWidth = this.lineWidth;
    g.font = this.font;
    g.fontObjectNumber = this.fontObjectNumber;
    g.fontSize = this.fontSize;
    g.charSpacing = this.charSpacing;
    g.wordSpacing = this.wordSpacing;
    g.hScale = this.hScale;
    g.leading = this.leading;
    g.render = this.render;
    g.rise = this.rise;
    g.strokeOverprint = this.strokeOverprint;
    g.fillOverprint = this.fillOverprint;
    g.overprintMode = this.overprintMode;
    g.strokeAlpha = this.strokeAlpha;
    g.fillAlpha = this.fillAlpha;
    g.blendMode = this.blendMode;
    g.softMask = this.softMask;
    g.fillState = this.fillState;
    g.strokeState = this.strokeState;
    return g;
  }

  setFill(space: ColourSpaceInfo, comps: number[], pattern: PDFObject | null): void {
    this.fillSpace = space;
    this.fillComps = comps;
    this.fillPattern = pattern;
    this.fillPaint = null;
  }

  setStroke(space: ColourSpaceInfo, comps: number[], pattern: PDFObject | null): void {
    this.strokeSpace = space;
    this.strokeComps = comps;
    this.strokePattern = pattern;
    this.strokePaint = null;
  }

  /** Any ExtGState parameter preflight reads changed: paint states are rebuilt on next use. */
  stateChanged(): void {
    this.fillState = null;
    this.strokeState = null;
  }
}

const ZERO: number[] = [0];

/** The colour a space starts with when selected by cs/CS (ISO 32000-1 8.6.8). */
export function initialColour(space: ColourSpaceInfo): number[] {
  switch (space.family) {
    case 'DeviceCMYK':
      return [0, 0, 0, 1];
    case 'Separation':
    case 'DeviceN':
      return new Array<number>(Math.max(1, space.components)).fill(1);
    case 'Pattern':
      return [];
    default:
      // ICCBased, Lab, Cal*, Indexed: every component 0 (for an ICC CMYK space that is no ink).
      return new Array<number>(Math.max(1, space.components)).fill(0);
  }
}

/** Interned paint states, so identical states compare by identity in group keys. */
export class PaintStates {
  private readonly interned = new Map<string, PaintState>();

  of(overprint: boolean, overprintMode: number, alpha: number, blendMode: string, softMask: boolean): PaintState {
    const key = `${overprint ? 1 : 0}${overprintMode}|${alpha}|${blendMode}|${softMask ? 1 : 0}`;
    let s = this.interned.get(key);
    if (!s) {
      s = { overprint, overprintMode, alpha, blendMode, softMask };
      this.interned.set(key, s);
    }
    return s;
  }

  fill(g: GraphicsState): PaintState {
    return (g.fillState ??= this.of(g.fillOverprint, g.overprintMode, g.fillAlpha, g.blendMode, g.softMask));
  }

  stroke(g: GraphicsState): PaintState {
    return (g.strokeState ??= this.of(g.strokeOverprint, g.overprintMode, g.strokeAlpha, g.blendMode, g.softMask));
  }
}
