/**
 * pages.scale-to-trim: scales a page whose finished size is not the ordered
 * one (order context artworkSize) so it is: an A4 file for an A5 order, a
 * US Letter file for A4, artwork exported at 99%.
 *
 * - The finished size is the TrimBox, else the CropBox (which defaults to the
 *   MediaBox), as preflight's artwork.size-mismatch measures it; a page within
 *   `tolerance_mm` of the ordered size in either orientation is left alone,
 *   as that check leaves it.
 * - The ordered size takes the page's orientation (its user space, as
 *   boxes.normalize does) and the page is scaled uniformly, by the factor that
 *   fits its finished area inside the ordered size: nothing is cut off. When
 *   the proportions differ, the ordered TrimBox is centred on the scaled
 *   artwork and the margin it adds on two sides is paper (the MediaBox grows
 *   to hold it).
 * - A factor beyond `maxScalePercent` (or below its inverse) is refused for
 *   that page: such a file is the wrong artwork rather than the wrong size.
 * Content, patterns and annotations follow through page-transform.ts; every
 * box is scaled with them and the new MediaBox starts at 0 0.
 */
import type { PDFDict, PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../../domain/model';
import { union } from '../../core/interpret/matrix';
import { MM_PER_PT, readPageBoxes, sameRect, setBox, type Rect } from '../../core/page-boxes';
import type { FixOutcome } from '../fix';
import { transformDestinations } from './destinations';
import { transformPage, transformRect, type AppearanceLedger, type Matrix } from './page-transform';

export interface ScaleToTrimParams {
  tolerance_mm: number;
  maxScalePercent: number;
}

export function scaleToTrim(doc: PDFDocument, order: OrderContext | null, params: ScaleToTrimParams): FixOutcome {
  const artW = positive(order?.artworkSize?.width_mm);
  const artH = positive(order?.artworkSize?.height_mm);
  const detail = 'pages scaled to the ordered artwork size';
  if (!artW || !artH) return { count: 0, pages: [], detail, skipReason: 'Scaling to the trim size needs the order\'s artwork size (artworkSize width_mm and height_mm in the order context).' };
  const tolerance = Math.max(0, params.tolerance_mm);
  const maxFactor = Math.max(1, params.maxScalePercent / 100);
  const context = doc.context;
  const ledger: AppearanceLedger = new Map();
  const moved = new Map<PDFDict, Matrix>();
  const pages: number[] = [];
  const refused: string[] = [];
  const unreadable: number[] = [];

  doc.getPages().forEach((page, i) => {
    const node = page.node;
    const boxes = readPageBoxes(context, node);
    const finished = boxes.declared.TrimBox ?? boxes.crop;
    const k = MM_PER_PT * boxes.userUnit;
    const wMm = (finished[2] - finished[0]) * k;
    const hMm = (finished[3] - finished[1]) * k;
    const fits = (a: number, b: number) => Math.abs(wMm - a) <= tolerance && Math.abs(hMm - b) <= tolerance;
    if (fits(artW, artH) || fits(artH, artW)) return;

    // The ordered size in this page's orientation, in user space units.
    const [tw, th] = (wMm >= hMm ? [Math.max(artW, artH), Math.min(artW, artH)] : [Math.min(artW, artH), Math.max(artW, artH)]).map((v) => v / k) as [number, number];
    const s = Math.min(tw / (finished[2] - finished[0]), th / (finished[3] - finished[1]));
    if (!Number.isFinite(s) || s <= 0 || s > maxFactor || s < 1 / maxFactor) {
      refused.push(`page ${i + 1} would need ${Math.round(s * 100)}%`);
      return;
    }

    const media = boxes.media;
    const m: Matrix = [s, 0, 0, s, -s * media[0], -s * media[1]];
    if (!transformPage(context, node, m, 0, ledger)) {
      unreadable.push(i + 1);
      return;
    }
    moved.set(node, m);
    const scaled = transformRect(m, finished);
    const cx = (scaled[0] + scaled[2]) / 2;
    const cy = (scaled[1] + scaled[3]) / 2;
    const trim: Rect = [cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2];
    const newMedia = union(transformRect(m, media), trim);
    setBox(context, node, 'MediaBox', newMedia);
    const { CropBox, BleedBox, ArtBox } = boxes.declared;
    if (CropBox) setBox(context, node, 'CropBox', sameRect(boxes.crop, media) ? newMedia : union(transformRect(m, boxes.crop), trim));
    // A bleed box scaled with the page may no longer hold the ordered trim; boxes.normalize settles its size afterwards.
    if (BleedBox) setBox(context, node, 'BleedBox', union(transformRect(m, BleedBox), trim));
    if (ArtBox) setBox(context, node, 'ArtBox', transformRect(m, ArtBox));
    setBox(context, node, 'TrimBox', trim);
    pages.push(i + 1);
  });

  const links = transformDestinations(doc, moved);
  const outcome: FixOutcome = { count: pages.length, pages, detail: links ? `${detail} (${links} destination(s) moved with them)` : detail };
  const notes = [
    ...(refused.length ? [`${refused.join(', ')}, beyond the ${params.maxScalePercent}% allowed (maxScalePercent)`] : []),
    ...(unreadable.length ? [`the content of page ${unreadable.join(', ')} could not be decoded`] : []),
  ];
  if (notes.length > 0) {
    if (pages.length === 0) outcome.skipReason = `Not scaled: ${notes.join('; ')}.`;
    else outcome.detail += ` (not scaled: ${notes.join('; ')})`;
  }
  return outcome;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
