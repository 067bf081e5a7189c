/**
 * Patterns used as a colour (ISO 32000-1 8.7): a tiling pattern's cell is a
 * content stream, run once per page where it is painted with, placed by the
 * pattern matrix relative to the default space of the stream that uses it
 * (so what it holds — images, fonts, colours — is listed); a shading pattern
 * paints its shading. Uncoloured tiling patterns (PaintType 2) take their
 * colour from the `scn` components in the pattern's underlying space.
 */
import { PDFDict, PDFStream, type PDFObject } from '@cantoo/pdf-lib';
import { getArray, getDict, getNumber, name, numbersOf, resolve } from '../pdf-objects';
import type { OperatorContext } from './operator-context';
import { GraphicsState } from './graphics-state';
import type { ColourSpaceInfo, Matrix, PaintSummary } from './types';
import { IDENTITY, matrixFrom, multiply } from './matrix';
import { idOf } from './page-collector';
import { inksOf } from './paint';
import { shadingInks } from './shading-inks';

export interface PatternInfo {
  id: number;
  /** PatternType 1: the cell's content stream. */
  tiling: PDFStream | null;
  uncoloured: boolean;
  matrix: Matrix;
  /** PatternType 2: the shading dictionary and its colour space. */
  shading: { dict: PDFDict; space: ColourSpaceInfo } | null;
}

const cache = new WeakMap<object, PatternInfo | null>();

export function patternInfo(x: OperatorContext, obj: PDFObject): PatternInfo | null {
  if (cache.has(obj)) return cache.get(obj)!;
  let info: PatternInfo | null = null;
  const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
  if (dict) {
    const type = getNumber(dict, 'PatternType');
    const matrix = matrixFrom(numbersOf(getArray(dict, 'Matrix'))) ?? (IDENTITY as Matrix);
    if (type === 1 && obj instanceof PDFStream) {
      info = { id: idOf(obj), tiling: obj, uncoloured: getNumber(dict, 'PaintType') === 2, matrix, shading: null };
    } else if (type === 2) {
      const sh = resolve(x.run.context, dict.get(name('Shading')));
      const shDict = sh instanceof PDFStream ? sh.dict : sh instanceof PDFDict ? sh : undefined;
      const space = shDict ? x.run.colourSpaces.ofObject(shDict.get(name('ColorSpace')), x.resources) : null;
      info = { id: idOf(obj), tiling: null, uncoloured: false, matrix, shading: shDict && space ? { dict: shDict, space } : null };
    }
  }
  cache.set(obj, info);
  return info;
}

/** The paint of a pattern colour: see Paints.pattern. */
export function patternPaint(x: OperatorContext, obj: PDFObject, space: ColourSpaceInfo, comps: number[]): PaintSummary {
  const paints = x.run.paints;
  const p = patternInfo(x, obj);
  if (!p) return paints.pattern(space, '?', null);
  if (p.shading) return paints.pattern(p.shading.space, `sh${p.id}`, shadingInks(x.run.context, p.shading.dict, p.shading.space));
  if (p.uncoloured && space.base) return paints.pattern(space, `t${p.id}:${comps.join(',')}`, inksOf(space.base, comps));
  return paints.pattern(space, `t${p.id}`, null);
}

/** Runs a tiling pattern's cell once per page, with the pattern matrix and, when uncoloured, the underlying colour. */
export function runTilingPattern(x: OperatorContext, p: PatternInfo): void {
  const cell = p.tiling;
  const run = x.run;
  if (!cell || run.donePerPage.has(cell)) return;
  run.donePerPage.add(cell);
  const gs = new GraphicsState();
  gs.ctm = multiply(p.matrix, x.frame.baseCtm);
  const fill = x.gs.fillPattern ? x.gs : null;
  if (p.uncoloured && fill?.fillSpace.base) {
    gs.setFill(fill.fillSpace.base, fill.fillComps, null);
    gs.setStroke(fill.fillSpace.base, fill.fillComps, null);
  }
  const resources = getDict(cell.dict, 'Resources') ?? x.resources;
  x.runNested(cell, 'a tiling pattern', 'pattern', gs, resources, { content: false, uncoloured: p.uncoloured });
}
