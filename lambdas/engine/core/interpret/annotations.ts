/**
 * Annotation appearances (ISO 32000-1 12.5.5): the normal appearance of each
 * annotation a viewer shows — its current /AS state when the appearance has
 * several — placed into the annotation's /Rect: the appearance /BBox mapped by
 * its /Matrix gives a box, and a matrix A scales and translates that box onto
 * the Rect; the form is then painted with Matrix × A. Hidden and NoView
 * annotations and Popups (drawn by the viewer, not from the page) are skipped.
 */
import { PDFDict, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { getArray, getDict, getName, getNumber, name, numbersOf, resolve, resolvedItems } from '../pdf-objects';
import { rectFrom } from '../page-boxes';
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
    if (annot.get(name('Subtype')) === popup) continue;
    const flags = getNumber(annot, 'F') ?? 0;
    if (flags & (HIDDEN | NO_VIEW)) continue;
    const appearance = normalAppearance(run, annot);
    const rect = rectFrom(resolve(context, annot.get(name('Rect'))));
    if (!appearance || !rect) continue;
    const bbox = rectFrom(resolve(context, appearance.stream.dict.get(name('BBox'))));
    if (!bbox) continue;
    const matrix = matrixFrom(numbersOf(getArray(appearance.stream.dict, 'Matrix'))) ?? (IDENTITY as Matrix);
    const placed = transformBox(matrix, bbox[0], bbox[1], bbox[2], bbox[3]);
    const a = boxToBox(placed, rect);
    const gs = new GraphicsState();
    gs.ctm = a;
    const x = new Executor(run, pageResources, gs, { within: 'annotation', content: false, ink: true, vectors: true, uncoloured: false, baseCtm: a });
    x.paintForm(appearance.stream, appearance.objectNumber, 'annotation');
  }
}

/** /AP /N: a stream, or a dictionary of states from which /AS picks one. */
function normalAppearance(run: DocumentRun, annot: PDFDict): { stream: PDFStream; objectNumber: number | null } | null {
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
