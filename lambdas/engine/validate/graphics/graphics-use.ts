/**
 * What the graphics rules need from content, watched during the one content
 * pass (content-pass.ts):
 *  - which pages paint with transparency (PDF/A-2/3 6.2.10, PDF/A-4 6.2.9: a
 *    page that does needs a blending colour space when no PDF/A output intent
 *    applies). A page paints with transparency when a painting operator runs
 *    while a soft mask, a blend mode other than Normal or a constant alpha
 *    below 1 (for the kind of painting: fill alpha for fills, images, shadings
 *    and forms, stroke alpha for strokes) is in effect, when an image with a
 *    soft mask is painted, or when a transparency group form is painted. Forms,
 *    tiling patterns, Type 3 glyphs and annotation appearances count for the
 *    page they are painted on; soft mask groups do not (they put down no ink).
 *  - which graphics state dictionaries and XObjects content uses: like
 *    veraPDF, PDF/A checks objects content paints with, not resources that
 *    sit unused (the veraPDF corpus has pass files with a forbidden form in
 *    resources that no content paints).
 *  - rendering intents named by the `ri` operator and inline images (6.2.9 /
 *    6.2.6), and the entries of inline images (6.2.4 / 6.2.8.1 / 6.2.7.1).
 */
import { PDFDict, PDFStream } from '@cantoo/pdf-lib';
import { isName, type Operand, type Operation } from '../../core/content-lexer';
import type { Within } from '../../core/interpret/types';
import type { ObservedStream } from '../../core/interpret/observer';
import { getDict, getName, getNumber, name } from '../../core/pdf-objects';
import type { ContentCollector } from '../content-collector';

export interface InlineImageUse {
  page: number;
  /** The inline image dictionary, abbreviations expanded to full key names. */
  entries: Record<string, Operand>;
}

export interface GraphicsUseFacts {
  /** Page → why it paints with transparency (the first reason met). */
  transparentPages: Map<number, string>;
  /** Rendering intents named by `ri` operators: the name and the first page. */
  riOperators: { intent: string; page: number }[];
  inlineImages: InlineImageUse[];
  /** Graphics state dictionaries applied by `gs`, with the pages applying them. */
  extGStates: Map<PDFDict, Set<number>>;
  /** XObjects painted by `Do`, and annotation appearances and soft mask groups run, with their pages. */
  xobjects: Map<PDFStream, Set<number>>;
  /** How many times each XObject is painted by `Do` (a tagged form may be painted once only). */
  paintCounts: Map<PDFStream, number>;
}

/** Occurrences kept per list: enough for counts a person reads, bounded for huge files. */
const MAX_KEPT = 2000;

const FILL_PATHS = new Set(['f', 'F', 'f*']);
const STROKE_PATHS = new Set(['S', 's']);
const BOTH_PATHS = new Set(['B', 'B*', 'b', 'b*']);
const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);

/** Inline image abbreviations (ISO 32000-1 Table 93). */
const INLINE_KEYS: Record<string, string> = {
  BPC: 'BitsPerComponent',
  CS: 'ColorSpace',
  D: 'Decode',
  DP: 'DecodeParms',
  F: 'Filter',
  H: 'Height',
  IM: 'ImageMask',
  I: 'Interpolate',
  W: 'Width',
};

export const graphicsUse: ContentCollector<GraphicsUseFacts> = {
  label: 'graphicsUse',
  create: () => {
    const facts: GraphicsUseFacts = { transparentPages: new Map(), riOperators: [], inlineImages: [], extGStates: new Map(), xobjects: new Map(), paintCounts: new Map() };
    const mark = (page: number, why: string) => {
      if (!facts.transparentPages.has(page)) facts.transparentPages.set(page, why);
    };
    return {
      operation(at: ObservedStream, op: Operation) {
        try {
          observe(at, op, facts, mark);
        } catch {
          // A malformed operand must not stop the pass for every area.
        }
      },
      enterStream(stream: PDFStream, kind: Within, at: ObservedStream) {
        try {
          if (kind === 'annotation' || kind === 'softmask') addTo(facts.xobjects, stream, at.pageNumber);
          if (kind !== 'form' && kind !== 'annotation') return;
          if (at.frame.within === 'softmask') return;
          if (getName(getDict(stream.dict, 'Group'), 'S') === 'Transparency') mark(at.pageNumber, `${kind === 'annotation' ? 'an annotation appearance' : 'a form XObject'} is a transparency group`);
        } catch {
          // as above
        }
      },
      result: () => facts,
    };
  },
};

function observe(at: ObservedStream, op: Operation, facts: GraphicsUseFacts, mark: (page: number, why: string) => void): void {
  const o = op.op;
  if (o === 'ri') {
    const n = op.operands[0];
    if (isName(n) && facts.riOperators.length < MAX_KEPT) facts.riOperators.push({ intent: n.name, page: at.pageNumber });
    return;
  }
  if (o === 'gs') {
    const n = op.operands[0];
    const g = isName(n) ? at.resource('ExtGState', n.name).obj : undefined;
    if (g instanceof PDFDict) addTo(facts.extGStates, g, at.pageNumber);
    else if (g instanceof PDFStream) addTo(facts.extGStates, g.dict, at.pageNumber);
  }
  if (o === 'Do') {
    const n = op.operands[0];
    const x = isName(n) ? at.resource('XObject', n.name).obj : undefined;
    if (x instanceof PDFStream) {
      addTo(facts.xobjects, x, at.pageNumber);
      facts.paintCounts.set(x, (facts.paintCounts.get(x) ?? 0) + 1);
    }
  }
  if (o === 'BI') {
    const d = op.operands[0];
    if (d && typeof d === 'object' && 'dict' in d && facts.inlineImages.length < MAX_KEPT) {
      const entries: Record<string, Operand> = {};
      for (const [k, v] of Object.entries(d.dict)) entries[INLINE_KEYS[k] ?? k] = v;
      facts.inlineImages.push({ page: at.pageNumber, entries });
    }
  }
  if (at.frame.within === 'softmask' || facts.transparentPages.has(at.pageNumber)) return;
  const gs = at.gs;
  const fill = FILL_PATHS.has(o) || o === 'sh' || o === 'BI' || o === 'Do';
  const stroke = STROKE_PATHS.has(o);
  const both = BOTH_PATHS.has(o);
  let paints = fill || stroke || both;
  let fills = fill || both;
  let strokes = stroke || both;
  if (TEXT_SHOW.has(o)) {
    const mode = gs.render;
    // Modes 3 and 7 paint nothing; 0/4 fill, 1/5 stroke, 2/6 both.
    if (mode === 3 || mode === 7) return;
    paints = true;
    fills = mode === 0 || mode === 2 || mode === 4 || mode === 6;
    strokes = mode === 1 || mode === 2 || mode === 5 || mode === 6;
    const font = gs.font?.dict;
    if (font && type3WithTransparency(font)) return mark(at.pageNumber, `${o} shows a Type 3 font whose resources carry transparency`);
  }
  if (!paints) return;
  if (gs.softMask) return mark(at.pageNumber, `${o} paints under a soft mask`);
  if (gs.blendMode !== 'Normal') return mark(at.pageNumber, `${o} paints with blend mode ${gs.blendMode}`);
  if (fills && gs.fillAlpha < 1) return mark(at.pageNumber, `${o} fills with alpha ${gs.fillAlpha}`);
  if (strokes && gs.strokeAlpha < 1) return mark(at.pageNumber, `${o} strokes with alpha ${gs.strokeAlpha}`);
  if (o === 'Do') {
    const n = op.operands[0];
    if (!isName(n)) return;
    const xo = at.resource('XObject', n.name).obj;
    if (xo instanceof PDFStream && getName(xo.dict, 'Subtype') === 'Image' && imageHasSoftMask(xo.dict)) mark(at.pageNumber, `image ${n.name} has a soft mask`);
  }
}

const type3Memo = new WeakMap<PDFDict, boolean>();

/**
 * A Type 3 font whose resources hold a graphics state with transparency
 * (alpha below 1, a soft mask, a blend mode other than Normal). Counted when
 * the font shows text even if the glyphs drawn do not apply it: the veraPDF
 * corpus fails a page whose shown glyphs are opaque while another glyph of the
 * same font uses such a state (6-2-10-t04-fail-i).
 */
function type3WithTransparency(font: PDFDict): boolean {
  const hit = type3Memo.get(font);
  if (hit !== undefined) return hit;
  let found = false;
  if (getName(font, 'Subtype') === 'Type3') {
    for (const [, v] of getDict(getDict(font, 'Resources'), 'ExtGState')?.entries() ?? []) {
      const g = font.context.lookup(v);
      const d = g instanceof PDFStream ? g.dict : g instanceof PDFDict ? g : undefined;
      if (!d) continue;
      const bm = getName(d, 'BM');
      if ((getNumber(d, 'ca') ?? 1) < 1 || (getNumber(d, 'CA') ?? 1) < 1 || d.lookup(name('SMask')) instanceof PDFDict || (bm !== undefined && bm !== 'Normal')) found = true;
    }
  }
  type3Memo.set(font, found);
  return found;
}

function addTo<T>(map: Map<T, Set<number>>, key: T, page: number): void {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(page);
}

/** An image with an SMask stream, or JPEG 2000 data carrying its own alpha (SMaskInData > 0). */
export function imageHasSoftMask(d: PDFDict): boolean {
  if (d.lookup(name('SMask')) instanceof PDFStream) return true;
  return (getNumber(d, 'SMaskInData') ?? 0) > 0;
}

export const nameOperand = (v: Operand | undefined): string | undefined => (isName(v) ? v.name : undefined);
