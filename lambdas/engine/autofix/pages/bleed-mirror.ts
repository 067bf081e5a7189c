/**
 * bleed.mirror: gives a page that was made to its trim size the bleed a
 * printer needs, by painting the page mirrored into the bleed area. A sliver
 * of paper at the cut is the usual complaint about such files; mirrored
 * artwork runs on across the cut and nobody sees the seam.
 *
 * Per page, after boxes.normalize (so TrimBox and BleedBox are settled):
 * - The bleed area is the BleedBox beyond the TrimBox. When the order asks
 *   for bleed (bleed.required_mm; else the fix's bleed_mm, 3 mm as the
 *   preflight profiles require) and the MediaBox has no room for it, the
 *   MediaBox (and a stated CropBox) grows to the TrimBox plus that bleed and
 *   the BleedBox is set to it; this is also what resolves bleed.insufficient
 *   where boxes.normalize could not (it only declares what the page has room
 *   for). The original content is then clipped to the area it showed before,
 *   so nothing that was hidden beyond the old MediaBox comes into view.
 * - A side lacks bleed when nothing the page paints reaches beyond the
 *   TrimBox on that side, judged by the content interpreter's contentBox (the
 *   box around what is painted, before clipping): conservative, a side where
 *   anything crosses the trim (artwork bleeding in part, crop marks, an image
 *   clipped at the trim) is left as it is.
 *   An empty page, or one whose artwork already bleeds, is only grown.
 * - The page's content becomes a form XObject (its glyphs left out: see
 *   strip-text.ts) drawn once per lacking side, flipped about that trim edge
 *   and clipped to its strip, and once per corner where both neighbours lack
 *   bleed, flipped about the corner. A strip beside a side that has its own
 *   bleed runs on into that corner, mirroring the real bleed there.
 * The mirrored copies are drawn after the content, outside the TrimBox only,
 * and marked as an artifact: inside the trim the page prints as before.
 */
import { PDFDict, PDFName, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../../domain/model';
import { pageInterpreter } from '../../core/interpret/interpret-document';
import { union } from '../../core/interpret/matrix';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { contains, grownBy, intersect, MM_PER_PT, readPageBoxes, setBox, type Rect } from '../../core/page-boxes';
import { getDict, name } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { fmt, matrixOps, wrapPageContent, type Matrix } from './page-transform';
import { withoutTextShowing } from './strip-text';
import { bleedMirrorReaches, TRIM_BEYOND_MEDIA } from '../../criteria/bleed-mirror-reach';

/** The XObject name of the mirrored copy: also how a page already mirrored is recognised. */
export const MIRROR_XOBJECT = 'PLBleedMirror';
/** Content within this distance (pt) beyond the trim line counts as placed on it, not as bleed (as preflight's safety check). */
const ON_TRIM = 0.5;
/** A bleed narrower than this (pt) is none. */
const MIN_STRIP = 0.01;

type Side = 'left' | 'bottom' | 'right' | 'top';

/** `defaultBleedMm`: the bleed wanted when the order states none (the preflight profiles ask for 3 mm). */
export function mirrorBleed(doc: PDFDocument, order: OrderContext | null, defaultBleedMm = 0): FixOutcome {
  const context = doc.context;
  const requiredMm = nonNegative(order?.bleed?.required_mm) ?? defaultBleedMm;
  const interpret = pageInterpreter(doc);
  const pages: number[] = [];
  const reasons = new Map<string, number[]>();
  const note = (why: string, page: number) => (reasons.get(why) ?? reasons.set(why, []).get(why)!).push(page);

  doc.getPages().forEach((page, i) => {
    const node = page.node;
    const boxes = readPageBoxes(context, node);
    const trim = boxes.declared.TrimBox;
    if (!trim) return note('it has no TrimBox (boxes.normalize adds one)', i + 1);
    if (getDict(inheritedResources(node), 'XObject')?.has(name(MIRROR_XOBJECT))) return; // mirrored before
    if (!bleedMirrorReaches(boxes.media, trim)) return note(TRIM_BEYOND_MEDIA, i + 1);

    const visible = boxes.crop;
    const perMm = 1 / (MM_PER_PT * boxes.userUnit);
    let media = boxes.media;
    let bleed = (boxes.declared.BleedBox && intersect(boxes.declared.BleedBox, media)) ?? trim;
    let grown = false;
    if (requiredMm > 0) {
      const g = requiredMm * perMm;
      const wanted = grownBy(trim, g);
      if (!contains(bleed, wanted)) {
        bleed = union(bleed, wanted);
        if (!contains(media, bleed)) {
          media = union(media, bleed);
          grown = true;
        }
      }
    }
    const room = { left: trim[0] - bleed[0], bottom: trim[1] - bleed[1], right: bleed[2] - trim[2], top: bleed[3] - trim[3] };
    if (Math.max(...Object.values(room)) < MIN_STRIP) return note('it has no bleed area (a BleedBox larger than the TrimBox, or the order\'s bleed, says how much)', i + 1);

    // What the page painted, within the area it showed: content hidden beyond the old MediaBox is no bleed.
    const content = interpret(i).contentBox;
    const beyond = content && {
      left: Math.max(content[0], visible[0]) < trim[0] - ON_TRIM,
      bottom: Math.max(content[1], visible[1]) < trim[1] - ON_TRIM,
      right: Math.min(content[2], visible[2]) > trim[2] + ON_TRIM,
      top: Math.min(content[3], visible[3]) > trim[3] + ON_TRIM,
    };
    const lacking = (s: Side) => beyond !== null && room[s] >= MIN_STRIP && !beyond[s];
    const sides = (['left', 'bottom', 'right', 'top'] as Side[]).filter(lacking);
    // An empty page, or one whose artwork bleeds all round, only needs room when the page grows.
    if (sides.length === 0 && !grown) return;

    const form = sides.length > 0 ? mirrorForm(context, node, visible) : null;
    if (sides.length > 0 && !form) return note('its content could not be decoded', i + 1);
    const draws = stripsOf(trim, bleed, lacking).map(({ clip, m }) => `q ${clip.map(fmt).join(' ')} re W n ${matrixOps(m)} /${MIRROR_XOBJECT} Do Q`);
    // Clipped to the area it showed only when something was painted beyond it: a clip that changes nothing
    // still changes how renderers smooth the edges of images (realworld/pdfjs/colorkeymask.pdf).
    const hiddenBeyond = content === null || !contains(visible, content, ON_TRIM);
    const clipOriginal = grown && hiddenBeyond ? `${[visible[0], visible[1], visible[2] - visible[0], visible[3] - visible[1]].map(fmt).join(' ')} re W n` : '';
    const after = draws.length > 0 ? `/Artifact BMC\n${draws.join('\n')}\nEMC\n` : '';
    if (!wrapPageContent(context, node, clipOriginal, after)) return note('its content could not be decoded', i + 1);
    if (form) addXObject(context, node, form);

    if (grown) {
      setBox(context, node, 'MediaBox', media);
      if (boxes.declared.CropBox) setBox(context, node, 'CropBox', media);
    }
    if (!boxes.declared.BleedBox || !contains(boxes.declared.BleedBox, bleed) || !contains(bleed, boxes.declared.BleedBox)) setBox(context, node, 'BleedBox', bleed);
    pages.push(i + 1);
  });

  const outcome: FixOutcome = { count: pages.length, pages, detail: 'pages given mirrored bleed, or grown to hold the ordered bleed' };
  if (pages.length === 0 && reasons.size > 0) {
    outcome.skipReason = `No bleed was mirrored: ${[...reasons].map(([why, on]) => `page ${on.join(', ')}: ${why}`).join('; ')}.`;
  }
  return outcome;
}

/**
 * The strips to paint, each as a clip rectangle [x y w h] and the mirroring
 * matrix: flipped about the trim edge it borders (x' = 2·edge − x), corners
 * about both edges.
 */
function stripsOf(trim: Rect, bleed: Rect, lacking: (s: Side) => boolean): { clip: [number, number, number, number]; m: Matrix }[] {
  const [tx0, ty0, tx1, ty1] = trim;
  const [bx0, by0, bx1, by1] = bleed;
  const out: { clip: [number, number, number, number]; m: Matrix }[] = [];
  const strip = (x0: number, y0: number, x1: number, y1: number, m: Matrix) => {
    if (x1 - x0 >= MIN_STRIP && y1 - y0 >= MIN_STRIP) out.push({ clip: [x0, y0, x1 - x0, y1 - y0], m });
  };
  const flipX = (edge: number): Matrix => [-1, 0, 0, 1, 2 * edge, 0];
  const flipY = (edge: number): Matrix => [1, 0, 0, -1, 0, 2 * edge];
  const flipXY = (ex: number, ey: number): Matrix => [-1, 0, 0, -1, 2 * ex, 2 * ey];
  // Left and right strips run into a corner whose other side has real bleed; the corner is theirs then.
  if (lacking('left')) strip(bx0, lacking('bottom') ? ty0 : by0, tx0, lacking('top') ? ty1 : by1, flipX(tx0));
  if (lacking('right')) strip(tx1, lacking('bottom') ? ty0 : by0, bx1, lacking('top') ? ty1 : by1, flipX(tx1));
  // Bottom and top strips likewise run into corners whose other side has real bleed.
  if (lacking('bottom')) strip(lacking('left') ? tx0 : bx0, by0, lacking('right') ? tx1 : bx1, ty0, flipY(ty0));
  if (lacking('top')) strip(lacking('left') ? tx0 : bx0, ty1, lacking('right') ? tx1 : bx1, by1, flipY(ty1));
  if (lacking('left') && lacking('bottom')) strip(bx0, by0, tx0, ty0, flipXY(tx0, ty0));
  if (lacking('right') && lacking('bottom')) strip(tx1, by0, bx1, ty0, flipXY(tx1, ty0));
  if (lacking('left') && lacking('top')) strip(bx0, ty1, tx0, by1, flipXY(tx0, ty1));
  if (lacking('right') && lacking('top')) strip(tx1, ty1, bx1, by1, flipXY(tx1, ty1));
  return out;
}

/**
 * The page's content as a form XObject, glyphs left out, over the page's own
 * resources, its BBox the area the page showed (so nothing hidden beyond the
 * CropBox is mirrored into view). Null when a content stream cannot be decoded.
 */
function mirrorForm(context: PDFContext, page: PDFDict, visible: Rect): PDFStream | null {
  const joined = contentBytes(context, page.get(name('Contents')));
  if (joined === null) return null;
  const resources = inheritedResources(page);
  return context.flateStream(withoutTextShowing(joined), {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: visible,
    ...(resources ? { Resources: resources } : {}),
  });
}

/** Adds the form to the page's own resources (a copy, when they are inherited or shared with other pages). */
function addXObject(context: PDFContext, page: PDFDict, form: PDFStream): void {
  const resources = inheritedResources(page);
  const own = resources ? resources.clone(context) : (context.obj({}) as PDFDict);
  const xobjects = getDict(resources, 'XObject');
  const ownX = xobjects ? xobjects.clone(context) : (context.obj({}) as PDFDict);
  ownX.set(PDFName.of(MIRROR_XOBJECT), context.register(form));
  own.set(name('XObject'), ownX);
  page.set(name('Resources'), own);
}

const nonNegative = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
