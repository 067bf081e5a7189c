/**
 * Annotation appearances (ISO 32000-1 12.5.5): the normal appearance of each
 * annotation a viewer shows — its current /AS state when the appearance has
 * several — placed into the annotation's /Rect: the appearance /BBox mapped by
 * its /Matrix gives a box, and a matrix A scales and translates that box onto
 * the Rect; the form is then painted with Matrix × A. Hidden and NoView
 * annotations and Popups (drawn by the viewer, not from the page) are skipped.
 *
 * With the run's everyAppearance option the appearances no viewer shows are
 * run too, without ink: a conformance checker judges every appearance stream
 * (veraPDF reads each state of N, D and R of every annotation, whatever its
 * flags), so the observer must see them.
 */
import { PDFDict, PDFRef, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getArray, getDict, getName, getNumber, name, numbersOf, resolve, resolvedItems } from '../pdf-objects';
import { rectFrom, type Rect } from '../page-boxes';
import type { DocumentRun } from './document-run';
import { Executor } from './executor';
import { GraphicsState } from './graphics-state';
import type { Matrix } from './types';
import { boxToBox, IDENTITY, matrixFrom, transformBox } from './matrix';

const HIDDEN = 1 << 1;
const NO_VIEW = 1 << 5;

export function paintAnnotations(run: DocumentRun, page: PDFDict, pageResources: PDFDict | undefined): void {
  const context = run.context;
  const popup = name('Popup');
  for (const annot of resolvedItems(context, page.get(name('Annots')))) {
    // Cheapest tests first: pages with thousands of links have no appearances to paint.
    if (!(annot instanceof PDFDict) || !annot.has(name('AP'))) continue;
    const flags = getNumber(annot, 'F') ?? 0;
    const visible = annot.get(name('Subtype')) !== popup && !(flags & (HIDDEN | NO_VIEW));
    const appearance = visible ? normalAppearance(run, annot) : null;
    const rect = rectFrom(resolve(context, annot.get(name('Rect'))));
    const shown = appearance && rect ? paintPlaced(run, pageResources, appearance, rect, true) : null;
    if (!run.everyAppearance) continue;
    for (const other of appearanceStreams(context, annot)) {
      if (other.stream === shown) continue;
      if (!rect || !paintPlaced(run, pageResources, other, rect, false)) paintUnplaced(run, pageResources, other);
    }
  }
}

/** An appearance placed into the annotation's Rect; the stream painted, or null without a usable BBox. */
function paintPlaced(run: DocumentRun, pageResources: PDFDict | undefined, appearance: Appearance, rect: Rect, ink: boolean): PDFStream | null {
  const bbox = rectFrom(resolve(run.context, appearance.stream.dict.get(name('BBox'))));
  if (!bbox) return null;
  const matrix = matrixFrom(numbersOf(getArray(appearance.stream.dict, 'Matrix'))) ?? (IDENTITY as Matrix);
  const placed = transformBox(matrix, bbox[0], bbox[1], bbox[2], bbox[3]);
  const a = boxToBox(placed, rect);
  const gs = new GraphicsState();
  gs.ctm = a;
  const x = new Executor(run, pageResources, gs, { within: 'annotation', content: false, ink, vectors: true, uncoloured: false, baseCtm: a });
  x.paintForm(appearance.stream, appearance.objectNumber, 'annotation');
  return appearance.stream;
}

/** An appearance that cannot be placed (no Rect or BBox): its operations only, in its own space. */
function paintUnplaced(run: DocumentRun, pageResources: PDFDict | undefined, appearance: Appearance): void {
  const x = new Executor(run, pageResources, new GraphicsState(), { within: 'annotation', content: false, ink: false, vectors: true, uncoloured: false, baseCtm: IDENTITY as Matrix });
  x.paintForm(appearance.stream, appearance.objectNumber, 'annotation');
}

export interface Appearance {
  stream: PDFStream;
  objectNumber: number | null;
}

/** Every appearance stream of an annotation, once each: N, D and R, each a stream or a dictionary of states. */
export function appearanceStreams(context: PDFContext, annot: PDFDict): Appearance[] {
  const ap = resolve(context, annot.get(name('AP')));
  if (!(ap instanceof PDFDict)) return [];
  const out: Appearance[] = [];
  const add = (raw: PDFObject | undefined) => {
    const s = resolve(context, raw);
    if (s instanceof PDFStream && !out.some((o) => o.stream === s)) out.push({ stream: s, objectNumber: raw instanceof PDFRef ? raw.objectNumber : null });
  };
  for (const key of ['N', 'D', 'R']) {
    const raw = ap.get(name(key));
    const v = resolve(context, raw);
    if (v instanceof PDFDict) for (const [, state] of v.entries()) add(state);
    else add(raw);
  }
  return out;
}

/** /AP /N: a stream, or a dictionary of states from which /AS picks one. */
function normalAppearance(run: DocumentRun, annot: PDFDict): Appearance | null {
  const ap = getDict(annot, 'AP');
  if (!ap) return null;
  let raw = ap.get(name('N'));
  let n = resolve(run.context, raw);
  if (n instanceof PDFDict) {
    const state = getName(annot, 'AS');
    const entries = n.entries();
    if (state !== undefined) raw = n.get(name(state));
    // Without /AS a single state is unambiguous; several are not (the viewer shows none).
    else raw = entries.length === 1 ? entries[0]![1] : undefined;
    n = resolve(run.context, raw);
  }
  if (!(n instanceof PDFStream)) return null;
  return { stream: n, objectNumber: raw instanceof PDFRef ? raw.objectNumber : null };
}
