/**
 * boxes.normalize: makes every page state its finished size and bleed the way
 * print workflows expect.
 *
 * - TrimBox, when missing: the ordered artwork size centred on the page (when it
 *   fits), else the CropBox (when it differs from the MediaBox), the ArtBox (when
 *   it lies on the page), or the MediaBox.
 * - BleedBox: the TrimBox grown by the ordered bleed; else, where the page's
 *   BleedBox holds less bleed than the profile's bleed.insufficient asks for
 *   (`requiredBleedMm`, from the preflight settings), that BleedBox grown to
 *   hold it; else the existing BleedBox (none stays none: the bleed is then
 *   measured to the MediaBox, all the room the page has). Either way within the MediaBox
 *   (bleed beyond the page does not exist): a page without room keeps what it
 *   has, and the check offers bleed.mirror for it.
 * - CropBox: the MediaBox, so the bleed area is not hidden.
 *
 * The page content is never touched: only declarations change.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../domain/model';
import { union } from '../core/interpret/matrix';
import { contains, grownBy, intersect, MM_PER_PT, readPageBoxes, sameRect, setBox, type Rect } from '../core/page-boxes';
import type { FixOutcome } from './fix';

export function normalizeBoxes(doc: PDFDocument, context: OrderContext | null, requiredBleedMm?: number): FixOutcome {
  const artwork = context?.artworkSize;
  const artW = positive(artwork?.width_mm);
  const artH = positive(artwork?.height_mm);
  const bleedMm = nonNegative(context?.bleed?.required_mm);
  const requiredMm = positive(requiredBleedMm);
  const pages: number[] = [];

  doc.getPages().forEach((page, i) => {
    const node = page.node;
    const boxes = readPageBoxes(doc.context, node);
    const { declared, media, userUnit } = boxes;
    const perMm = 1 / (MM_PER_PT * userUnit);
    let changed = false;

    let trim = declared.TrimBox;
    if (!trim) {
      trim = (artW && artH && centredArtwork(media, artW * perMm, artH * perMm)) || defaultTrim(declared, media);
      setBox(doc.context, node, 'TrimBox', trim);
      changed = true;
    }

    let bleed: Rect | null = declared.BleedBox;
    if (bleedMm !== undefined) bleed = grownBy(trim, bleedMm * perMm);
    else if (requiredMm !== undefined && declared.BleedBox) {
      // Without a BleedBox the check measures to the CropBox, which becomes the MediaBox here: all the room there is.
      const wanted = grownBy(trim, requiredMm * perMm);
      if (!contains(declared.BleedBox, wanted)) bleed = union(declared.BleedBox, wanted);
    }
    if (bleed) {
      const clipped = intersect(bleed, media);
      // A BleedBox must at least contain the TrimBox; if clipping leaves less, fall back to the MediaBox.
      const target = clipped && contains(clipped, intersect(trim, media) ?? trim) ? clipped : media;
      if (!declared.BleedBox || !sameRect(declared.BleedBox, target)) {
        setBox(doc.context, node, 'BleedBox', target);
        changed = true;
      }
    }

    // An inherited CropBox lives on an ancestor; the page's own entry overrides it.
    if (declared.CropBox && !sameRect(declared.CropBox, media)) {
      setBox(doc.context, node, 'CropBox', media);
      changed = true;
    }
    if (changed) pages.push(i + 1);
  });

  return { count: pages.length, pages, detail: 'pages whose boxes were changed' };
}


function centredArtwork(media: Rect, w: number, h: number): Rect | null {
  const mw = media[2] - media[0];
  const mh = media[3] - media[1];
  // Orient the artwork like the page's user space.
  const [aw, ah] = mw >= mh ? [Math.max(w, h), Math.min(w, h)] : [Math.min(w, h), Math.max(w, h)];
  if (aw > mw + 0.01 || ah > mh + 0.01) return null;
  const x = media[0] + (mw - aw) / 2;
  const y = media[1] + (mh - ah) / 2;
  return [x, y, x + aw, y + ah];
}

function defaultTrim(declared: ReturnType<typeof readPageBoxes>['declared'], media: Rect): Rect {
  const crop = declared.CropBox && intersect(declared.CropBox, media);
  if (crop && !sameRect(crop, media)) return crop;
  // An ArtBox reaching beyond the MediaBox was not drawn for this page (realworld/pdfjs/issue6081.pdf: an
  // ArtBox 144 pt wider than its portrait page, whose artwork rises above it): clipped to the page it would
  // cut off content that prints today. The page as it shows is the safe finished size then.
  const art = declared.ArtBox && contains(media, declared.ArtBox, ART_TOLERANCE) ? intersect(declared.ArtBox, media) : null;
  if (art) return art;
  return media;
}

/** Rounding an application may leave in a box that is meant to lie on the page (pt). */
const ART_TOLERANCE = 0.5;

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
const nonNegative = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
