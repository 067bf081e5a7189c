/**
 * Annotation appearances for pdfa.prepare. PDF/A wants what an annotation
 * shows fixed in the file, not left to the viewer: every annotation but a
 * Popup, a Link (and in PDF/A-4 a Projection) or a point-sized one has an
 * appearance dictionary (PDF/A-2/3/4 6.3.3; PDF/A-1 6.9 asks it of form
 * widgets only), whose normal appearance N is one stream — or, for a button
 * widget, a dictionary of one stream per state (PDF/A-1 6.5.3, 6.3.3).
 *
 * Missing appearances are built from the annotation's own properties where
 * ISO 32000-1 12.5.6 says how it looks (shapes, lines, ink, text markup, a
 * note icon, a caret; widgets from their MK colours, border and value), drawn
 * as pdf.js draws such annotations without an appearance. Where nothing is
 * defined to draw (a stamp's name, a sound's icon, a movie) or the text needs
 * a font the file does not embed, the appearance is an empty form the size of
 * Rect — what a reader following the standard printed for it before: nothing —
 * and the outcome says which ones.
 *
 * An N of the wrong shape is corrected without changing what shows: a
 * button's single stream becomes its state (the one AS names, or On), a
 * non-button's state dictionary becomes the stream AS selects.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getName, getNumber, getText, name, numbersOf, resolve, resolvedItems } from '../../core/pdf-objects';
import { inheritedFieldEntry } from '../../core/form-fields';
import {
  borderOf, colourArray, colourOp, ellipse, highlightPath, insetRect, n, polyline, quadsOf, squigglyPath, strikeOutPath, strokeStyle, underlinePath,
  type Built, type IntentSpace,
} from './appearance-drawing';
import { drawText, parseDa } from './appearance-text';
import { drawWidget, type WidgetAppearance } from './widget-appearances';

export interface AppearanceChange {
  page: number;
  subtype: string;
  /** What was done ("drawn", "empty", "made a state dictionary"…). */
  what: string;
  /** For an empty or partial appearance: why nothing more was drawn. */
  why?: string;
}

type Rect = [number, number, number, number];

const NO_APPEARANCE_NEEDED = ['Popup', 'Link'];
/** The subtypes markup() draws from their own properties. */
const DRAWN_KINDS = ['Square', 'Circle', 'Line', 'Polygon', 'PolyLine', 'Ink', 'Highlight', 'Underline', 'StrikeOut', 'Squiggly', 'Text', 'Caret', 'FreeText'];

export function ensureAppearances(doc: PDFDocument, part: number, intent: IntentSpace): AppearanceChange[] {
  const ctx = doc.context;
  const changes: AppearanceChange[] = [];
  const seen = new Set<PDFDict>();
  let pages: PDFDict[];
  try {
    pages = doc.getPages().map((p) => p.node);
  } catch {
    return changes;
  }
  const exempt = part === 4 ? [...NO_APPEARANCE_NEEDED, 'Projection'] : NO_APPEARANCE_NEEDED;
  pages.forEach((page, i) => {
    for (const annot of resolvedItems(ctx, page.get(name('Annots')))) {
      if (!(annot instanceof PDFDict) || seen.has(annot)) continue;
      seen.add(annot);
      try {
        const change = appearanceOf(doc, annot, part, exempt, intent);
        if (change) changes.push({ page: i + 1, subtype: getName(annot, 'Subtype') ?? '(no Subtype)', ...change });
      } catch {
        // A malformed annotation is left as it is; validation reports it.
      }
    }
  });
  return changes;
}

function appearanceOf(doc: PDFDocument, annot: PDFDict, part: number, exempt: string[], intent: IntentSpace): Omit<AppearanceChange, 'page' | 'subtype'> | null {
  const ctx = doc.context;
  const subtype = getName(annot, 'Subtype') ?? '';
  const isButton = subtype === 'Widget' && inheritedName(doc, annot, 'FT') === 'Btn';
  const ap = annot.lookup(name('AP'));
  const normal = ap instanceof PDFDict ? ap.lookup(name('N')) : undefined;
  const as = getName(annot, 'AS');

  if (normal instanceof PDFStream || normal instanceof PDFDict) {
    const rawN = (ap as PDFDict).get(name('N'))!;
    if (isButton && normal instanceof PDFStream) {
      // The stream shows whatever AS says; as the state AS names it keeps showing.
      const state = as ?? 'On';
      (ap as PDFDict).set(name('N'), ctx.obj({ [state]: rawN }));
      if (!as) annot.set(name('AS'), PDFName.of(state));
      return { what: 'button appearance made a state dictionary' };
    }
    if (normal instanceof PDFDict) {
      const streams = normal.entries().filter(([, v]) => resolve(ctx, v) instanceof PDFStream);
      if (isButton) {
        if (streams.length === normal.entries().length && streams.length > 0) return null;
        if (streams.length > 0) {
          for (const [k, v] of normal.entries()) if (!(resolve(ctx, v) instanceof PDFStream)) normal.delete(k);
          return { what: 'button states without a stream removed' };
        }
      } else {
        // A non-button shows the state AS selects: that stream becomes N (none selected: nothing showed).
        const chosen = streams.find(([k]) => k.decodeText() === as)?.[1] ?? (streams.length === 1 && as === undefined ? streams[0]![1] : undefined);
        if (chosen) {
          (ap as PDFDict).set(name('N'), chosen);
          return { what: 'appearance states reduced to the one shown' };
        }
      }
    } else return null;
  }

  // No usable appearance: PDF/A-1 asks one of widgets only; later parts of all but the exempt and point-sized.
  const rect = rectOf(annot);
  const needed = part === 1 ? subtype === 'Widget' : !exempt.includes(subtype) && !(rect && rect[0] === rect[2] && rect[1] === rect[3]);
  if (!needed) return null;
  const box: Rect = rect ?? [0, 0, 0, 0];
  if (subtype === 'Widget') {
    const w = drawWidget(doc, annot, box, intent);
    install(doc, annot, w);
    return { what: w.drawn ? 'drawn' : 'empty', ...(w.why ? { why: w.why } : {}) };
  }
  const built = part === 1 ? null : markup(doc, annot, subtype, box, intent);
  const why = DRAWN_KINDS.includes(subtype) ? 'its properties give nothing to draw (no readable geometry, or no colour)' : 'ISO 32000 defines nothing to draw for it without an appearance';
  const form = built ?? { content: '', bbox: [0, 0, box[2] - box[0], box[3] - box[1]] as Rect, why };
  annot.set(name('AP'), ctx.obj({ N: formStream(doc, form) }));
  return { what: built && form.content ? 'drawn' : 'empty', ...(form.why ? { why: form.why } : {}) };
}

/** Sets a widget's appearance: one stream, or a state dictionary with AS naming the current state. */
function install(doc: PDFDocument, annot: PDFDict, w: WidgetAppearance): void {
  const ctx = doc.context;
  if ('states' in w) {
    const states: Record<string, PDFRef> = {};
    for (const [state, form] of Object.entries(w.states)) states[state] = formStream(doc, form);
    annot.set(name('AP'), ctx.obj({ N: ctx.obj(states) }));
    annot.set(name('AS'), PDFName.of(w.as));
  } else annot.set(name('AP'), ctx.obj({ N: formStream(doc, w.form) }));
}

/** A form XObject holding an appearance. */
export function formStream(doc: PDFDocument, form: Built): PDFRef {
  const ctx = doc.context;
  const resources: Record<string, PDFObject> = {};
  for (const [k, v] of Object.entries(form.resources ?? {})) resources[k] = ctx.obj(v);
  const stream = ctx.flateStream(form.content, { Type: 'XObject', Subtype: 'Form', FormType: 1, BBox: form.bbox.map((v) => PDFNumber.of(Number(n(v)))), Resources: ctx.obj(resources) });
  return ctx.register(stream);
}

export function rectOf(annot: PDFDict): Rect | null {
  const r = numbersOf(annot.lookup(name('Rect')) instanceof PDFArray ? (annot.lookup(name('Rect')) as PDFArray) : undefined);
  if (!r || r.length < 4 || r.slice(0, 4).some((v) => !Number.isFinite(v))) return null;
  return [Math.min(r[0]!, r[2]!), Math.min(r[1]!, r[3]!), Math.max(r[0]!, r[2]!), Math.max(r[1]!, r[3]!)];
}

/** An inheritable name entry of a widget's field (FT), through Parent. */
export function inheritedName(doc: PDFDocument, annot: PDFDict, key: string): string | undefined {
  const v = inheritedFieldEntry(annot, key);
  return v instanceof PDFName ? v.decodeText() : undefined;
}

const BLACK = [0];
const YELLOW = [1, 1, 0];

/** The appearance of a non-widget annotation from its own properties, or null when there is nothing defined to draw. */
function markup(doc: PDFDocument, annot: PDFDict, subtype: string, rect: Rect, intent: IntentSpace): Built | null {
  const ctx = doc.context;
  const c = colourArray(annot, 'C');
  const ic = colourArray(annot, 'IC');
  const border = borderOf(ctx, annot);
  const ca = getNumber(annot, 'CA');
  // CA: the annotation's constant opacity, applied in the form as pdf.js does.
  const gs: Record<string, Record<string, PDFObject>> | undefined =
    ca !== undefined && ca >= 0 && ca < 1 ? { ExtGState: { GS0: ctx.obj({ Type: 'ExtGState', CA: ca, ca }) } } : undefined;
  const body: string[] = [];
  const stroke = colourOp(c ?? BLACK, true, intent);
  // Lines, polygons and ink with a zero border would not show at all; pdf.js draws them 1 point wide.
  const lineWidth = border.width || 1;
  switch (subtype) {
    case 'Square':
    case 'Circle': {
      const fill = colourOp(ic, false, intent);
      const strokes = border.width > 0 && stroke !== null;
      if (!strokes && !fill) return { content: '', bbox: rect, why: 'it has neither a border nor an interior colour' };
      body.push(strokeStyle(border));
      if (strokes) body.push(stroke!);
      if (fill) body.push(fill);
      body.push(subtype === 'Square' ? insetRect(rect, strokes ? border.width : 0) : ellipse(rect, strokes ? border.width : 0), strokes && fill ? 'B' : strokes ? 'S' : 'f');
      break;
    }
    case 'Line': {
      const l = numbersOf(annot.lookup(name('L')) instanceof PDFArray ? (annot.lookup(name('L')) as PDFArray) : undefined);
      const path = l && l.length >= 4 ? polyline(l.slice(0, 4), false) : null;
      if (!path || !stroke) return null;
      body.push(strokeStyle({ ...border, width: lineWidth }), stroke, path, 'S');
      break;
    }
    case 'Polygon':
    case 'PolyLine': {
      const v = numbersOf(annot.lookup(name('Vertices')) instanceof PDFArray ? (annot.lookup(name('Vertices')) as PDFArray) : undefined);
      const path = v ? polyline(v, subtype === 'Polygon') : null;
      if (!path) return null;
      const fill = subtype === 'Polygon' ? colourOp(ic, false, intent) : null;
      if (!stroke && !fill) return null;
      body.push(strokeStyle({ ...border, width: lineWidth }), ...(stroke ? [stroke] : []), ...(fill ? [fill] : []), path, stroke && fill ? 'B' : fill ? 'f' : 'S');
      break;
    }
    case 'Ink': {
      const paths = resolvedItems(ctx, annot.get(name('InkList')))
        .map((s) => (s instanceof PDFArray ? polyline(numbersOf(s) ?? [], false) : null))
        .filter((p): p is string => p !== null);
      if (!paths.length || !stroke) return null;
      body.push(strokeStyle({ ...border, width: lineWidth }), '1 J 1 j', stroke, ...paths, 'S');
      break;
    }
    case 'Highlight':
    case 'Underline':
    case 'StrikeOut':
    case 'Squiggly': {
      const quads = quadsOf(annot);
      if (!quads.length) return null;
      if (subtype === 'Highlight') {
        const fill = colourOp(c ?? YELLOW, false, intent);
        if (!fill) return null;
        // Multiply, so the text under the highlight stays readable.
        const states = { ...(gs?.ExtGState ?? {}), GS1: ctx.obj({ Type: 'ExtGState', BM: 'Multiply' }) };
        return { content: ['q', ...(gs ? ['/GS0 gs'] : []), '/GS1 gs', fill, ...quads.map(highlightPath), 'f', 'Q'].join('\n'), bbox: rect, resources: { ExtGState: states } };
      }
      if (!stroke) return null;
      const path = subtype === 'Underline' ? underlinePath : subtype === 'StrikeOut' ? strikeOutPath : squigglyPath;
      body.push('1 w [] 0 d', stroke, ...quads.map(path), 'S');
      break;
    }
    case 'Text':
      body.push(...noteIcon(rect, c ?? YELLOW, intent));
      break;
    case 'Caret': {
      const fill = colourOp(c ?? BLACK, false, intent);
      if (!fill) return null;
      const [x0, y0, x1, y1] = insetBy(rect, numbersOf(annot.lookup(name('RD')) instanceof PDFArray ? (annot.lookup(name('RD')) as PDFArray) : undefined));
      const mx = (x0 + x1) / 2;
      body.push(fill, `${n(x0)} ${n(y0)} m ${n(mx)} ${n(y1)} l ${n(x1)} ${n(y0)} l ${n(mx)} ${n(y0 + (y1 - y0) / 3)} l h f`);
      break;
    }
    case 'FreeText': {
      const contents = getText(annot, 'Contents') ?? '';
      if (!contents.trim()) return { content: '', bbox: rect, why: 'it has no text' };
      const da = parseDa(getText(annot, 'DA'));
      const dr = getDict(getDict(doc.catalog as PDFDict, 'AcroForm'), 'DR');
      const w = rect[2] - rect[0];
      const h = rect[3] - rect[1];
      const text = drawText(ctx, dr, da, contents, { width: w, height: h, inset: 2 + border.width, quadding: getNumber(annot, 'Q') ?? 0, multiline: true }, intent);
      if (!text.ok) return { content: '', bbox: [0, 0, w, h], why: `its text is not drawn: ${text.reason}` };
      return { content: text.content, bbox: [0, 0, w, h], resources: { Font: { [text.fontName]: text.font } } };
    }
    default:
      return null;
  }
  return { content: ['q', ...(gs ? ['/GS0 gs'] : []), ...body, 'Q'].join('\n'), bbox: rect, ...(gs ? { resources: gs } : {}) };
}

/** Rect less the RD differences (left, bottom, right, top) when they are sane. */
function insetBy(r: Rect, rd: number[] | undefined): Rect {
  if (!rd || rd.length !== 4 || rd.some((v) => !Number.isFinite(v) || v < 0)) return r;
  const out: Rect = [r[0] + rd[0]!, r[1] + rd[1]!, r[2] - rd[2]!, r[3] - rd[3]!];
  return out[0] < out[2] && out[1] < out[3] ? out : r;
}

/**
 * A text annotation's closed note: a 20-point icon at the top left of Rect
 * (viewers draw it there, at a fixed size), a folded sheet in the annotation's
 * colour with three lines of "text".
 */
function noteIcon(rect: Rect, colour: number[], intent: IntentSpace): string[] {
  const size = Math.min(20, rect[2] - rect[0], rect[3] - rect[1]);
  const x = rect[0];
  const y = rect[3] - size;
  const s = size / 20;
  const at = (px: number, py: number) => `${n(x + px * s)} ${n(y + py * s)}`;
  const fill = colourOp(colour, false, intent) ?? '1 g';
  return [
    `${n(Math.max(0.5, s))} w 1 j`,
    fill,
    '0 G',
    `${at(1, 1)} m ${at(19, 1)} l ${at(19, 15)} l ${at(15, 19)} l ${at(1, 19)} l h B`,
    `${at(4, 14)} m ${at(15, 14)} l ${at(4, 10)} m ${at(16, 10)} l ${at(4, 6)} m ${at(12, 6)} l S`,
  ];
}
