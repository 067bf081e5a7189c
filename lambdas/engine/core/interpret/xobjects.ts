/**
 * What `Do`, `BI` and `gs` with a soft mask paint: image XObjects and inline
 * images placed by the CTM (with their effective resolution the way pdfimages
 * computes it: pixels over the length of the placed unit square's sides), form
 * XObjects, and the soft mask group of an ExtGState (run once per page, within
 * 'softmask': what it holds is listed, but it puts down no ink).
 */
import { PDFStream, type PDFDict } from '@cantoo/pdf-lib';
import type { Operand, PdfDictToken } from '../content-lexer';
import { getDict, getName } from '../pdf-objects';
import type { OperatorContext } from './operator-context';
import { GraphicsState } from './graphics-state';
import { inlineImageFacts, sampledMaxInks, xobjectImageFacts, type ImageFacts } from './images';
import type { PaintSummary, PlacedImage } from './types';
import { idOf } from './page-collector';
import { transformBox } from './matrix';
import { softMaskGroup } from './ext-gstate';

const factsCache = new WeakMap<PDFStream, Map<PDFDict | undefined, ImageFacts>>();

export function doXObject(x: OperatorContext, key: string): void {
  const { obj, objectNumber } = x.resource('XObject', key);
  if (!(obj instanceof PDFStream)) return;
  const subtype = getName(obj.dict, 'Subtype');
  if (subtype === 'Image') drawImage(x, obj, objectNumber, imageFacts(x, obj));
  else if (subtype === 'Form') x.paintForm(obj, objectNumber);
}

export function inlineImage(x: OperatorContext, token: Operand | undefined): void {
  const dict = typeof token === 'object' && token !== null && 'dict' in token ? (token as PdfDictToken) : undefined;
  drawImage(x, null, null, inlineImageFacts(x.run.colourSpaces, dict, x.resources));
}

function imageFacts(x: OperatorContext, stream: PDFStream): ImageFacts {
  let byResources = factsCache.get(stream);
  if (!byResources) {
    byResources = new Map();
    factsCache.set(stream, byResources);
  }
  // The colour space may depend on the resources in effect (Default* spaces).
  const key = getDict(x.resources, 'ColorSpace') ? x.resources : undefined;
  let facts = byResources.get(key);
  if (!facts) {
    facts = xobjectImageFacts(x.run.colourSpaces, stream, x.resources);
    byResources.set(key, facts);
  }
  return facts;
}

function drawImage(x: OperatorContext, stream: PDFStream | null, objectNumber: number | null, facts: ImageFacts): void {
  const run = x.run;
  const page = run.page;
  const g = x.gs;
  const m = g.ctm;
  const bbox = transformBox(m, 0, 0, 1, 1);
  run.notable++;
  const fill: PaintSummary | null = facts.imageMask ? x.fillPaint() : null;
  const state = x.fillState();
  if (page.images.length < run.maxImagesPerPage && run.imagesLeft > 0) {
    run.imagesLeft--;
    const inch = run.userUnit / 72;
    const ppiX = facts.widthPx / (Math.hypot(m[0], m[1]) * inch);
    const ppiY = facts.heightPx / (Math.hypot(m[2], m[3]) * inch);
    const img: PlacedImage = {
      page: page.page,
      xobject: stream,
      objectNumber,
      inline: stream === null,
      widthPx: facts.widthPx,
      heightPx: facts.heightPx,
      bitsPerComponent: facts.bitsPerComponent,
      colourSpace: facts.colourSpace,
      filters: facts.filters,
      imageMask: facts.imageMask,
      softMask: facts.softMask,
      mask: facts.mask,
      matrix: [m[0], m[1], m[2], m[3], m[4], m[5]],
      bbox,
      ppiX: Number.isFinite(ppiX) ? ppiX : 0,
      ppiY: Number.isFinite(ppiY) ? ppiY : 0,
      fill,
      state,
      within: x.frame.within,
    };
    page.image(img);
  } else if (run.imagesLeft <= 0) page.limit('images', 'the document holds too many image placements to list them all; the rest are not listed');
  else page.limit('images', `more than ${run.maxImagesPerPage} images on the page; the rest are not listed`);
  if (!x.frame.ink) return;
  if (fill) x.recordPaint('image', fill, state, g.fillSpace, bbox);
  else if (facts.colourSpace) {
    const inks = stream && Date.now() < run.deadline ? sampledMaxInks(stream, facts, run.sampling) : null;
    const paint = run.paints.fromInks(facts.colourSpace, inks ? `img${idOf(stream!)}` : 'img', inks);
    x.recordPaint('image', paint, state, facts.colourSpace, bbox);
  }
  if (facts.softMask) page.transparencyUse('image-soft-mask', bbox);
  if (x.frame.content) page.visible(bbox, 'image');
}

/** The soft mask of an ExtGState: its group is run once per page, placed by the CTM in effect at `gs`. */
export function runSoftMask(x: OperatorContext, mask: PDFDict): void {
  const group = softMaskGroup(mask);
  const run = x.run;
  if (!group || run.donePerPage.has(group)) return;
  run.donePerPage.add(group);
  const gs = new GraphicsState();
  gs.ctm = x.gs.ctm;
  x.paintForm(group, null, 'softmask', gs, { ink: false, content: false });
}
