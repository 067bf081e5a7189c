/**
 * The graphics objects a PDF/A or PDF/UA checker judges: those content uses.
 * Like veraPDF, a graphics state dictionary or XObject counts when a content
 * stream applies or paints it (`gs`, `Do`, seen by graphics-use.ts in the one
 * content pass: page content, forms, tiling patterns, Type 3 glyphs, soft mask
 * groups, annotation appearances); a forbidden form left unused in a resource
 * dictionary is not reported. Added to those: every appearance stream of every
 * annotation (N, R and D, each state — a viewer may show any of them), the
 * soft mask group of each graphics state used, and the images an image uses as
 * its soft mask or stencil mask (/SMask, /Mask), which are image XObjects too.
 */
import { PDFDict, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { appearanceStreams } from '../../core/interpret/annotations';
import { getName, name, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { collected } from '../content-pass';
import { graphicsUse } from './graphics-use';

export interface Found<T> {
  obj: T;
  pages: number[];
  objectNumber: number | undefined;
}

export interface GraphicsObjects {
  extGStates: Found<PDFDict>[];
  /** Image XObjects, including images used as /SMask or /Mask of another image. */
  images: Found<PDFStream>[];
  /** Form XObjects, including soft mask groups and annotation appearance streams. */
  forms: Found<PDFStream>[];
  /** XObjects of any other subtype (PS, or unknown). */
  otherXObjects: Found<PDFStream>[];
  /** The forms among `forms` that are soft mask groups (/G of an SMask dictionary). */
  softMaskGroups: Set<PDFStream>;
}

export const graphicsObjects = fact('graphics-objects', (m): GraphicsObjects => {
  const use = collected(m, graphicsUse);
  const xobjects = new Map<PDFStream, Set<number>>();
  const add = (s: PDFStream, pages: Iterable<number>) => {
    let set = xobjects.get(s);
    if (!set) xobjects.set(s, (set = new Set()));
    for (const p of pages) set.add(p);
  };
  for (const [s, pages] of use.xobjects) add(s, pages);
  m.doc.getPages().forEach((p, i) => {
    for (const ap of appearanceForms(m.context, p.node)) add(ap, [i + 1]);
  });
  const softMaskGroups = new Set<PDFStream>();
  for (const [g, pages] of use.extGStates) {
    const smask = g.lookup(name('SMask'));
    const group = smask instanceof PDFDict ? smask.lookup(name('G')) : undefined;
    if (group instanceof PDFStream) {
      softMaskGroups.add(group);
      add(group, pages);
    }
  }
  // Masks of images: an image's /SMask and /Mask streams (a mask's own masks too, a few levels deep).
  let frontier = [...xobjects.keys()];
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const next: PDFStream[] = [];
    for (const s of frontier) {
      if (getName(s.dict, 'Subtype') !== 'Image') continue;
      for (const key of ['SMask', 'Mask']) {
        const v = s.dict.lookup(name(key));
        if (v instanceof PDFStream && !xobjects.has(v)) {
          add(v, xobjects.get(s) ?? []);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  const found = <T extends PDFDict | PDFStream>(obj: T, pages: Set<number>): Found<T> => ({ obj, pages: [...pages].sort((a, b) => a - b), objectNumber: m.objectNumbers.of(obj) });
  const images: Found<PDFStream>[] = [];
  const forms: Found<PDFStream>[] = [];
  const others: Found<PDFStream>[] = [];
  for (const [s, pages] of xobjects) {
    const subtype = getName(s.dict, 'Subtype');
    // Appearance streams and soft mask groups are forms even when they omit Subtype.
    (subtype === 'Image' ? images : subtype === 'Form' || subtype === undefined ? forms : others).push(found(s, pages));
  }
  return { extGStates: [...use.extGStates].map(([g, pages]) => found(g, pages)), images, forms, otherXObjects: others, softMaskGroups };
});

/** Every appearance stream of a page's annotations: N, R and D, each a stream or a dictionary of states. */
export function appearanceForms(ctx: PDFContext, page: PDFDict): PDFStream[] {
  const out: PDFStream[] = [];
  for (const annot of resolvedItems(ctx, page.get(name('Annots')))) if (annot instanceof PDFDict) for (const a of appearanceStreams(ctx, annot)) out.push(a.stream);
  return out;
}

/** Annotations of every page with their page number (for entries such as BM on the annotation itself). */
export const annotations = fact('graphics-annotations', (m: ValidationModel): { annot: PDFDict; page: number }[] => {
  const out: { annot: PDFDict; page: number }[] = [];
  m.doc.getPages().forEach((p, i) => {
    for (const a of resolvedItems(m.context, p.node.get(name('Annots')))) if (a instanceof PDFDict) out.push({ annot: a, page: i + 1 });
  });
  return out;
});
