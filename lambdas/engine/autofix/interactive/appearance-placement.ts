/**
 * Drawing annotation appearances into page content: the shared core of
 * annotations.flatten and forms.flatten.
 *
 * Whether an annotation prints (ISO 32000-1 12.5.3, as these fixes read it):
 * - `prints`: Print set, Hidden clear, NoView clear. Drawn into the page.
 * - `print-only`: Print and NoView set: it prints but is never shown on screen.
 *   Page content is both printed and shown, so it cannot keep that behaviour
 *   once drawn; the callers decide (annotations.flatten leaves it in place).
 * - `never`: Print clear or Hidden set — nothing reaches paper. The Invisible
 *   flag counts only for subtypes a reader does not know, as the standard says.
 *
 * Which appearance (12.5.5): the normal appearance /AP /N, a stream, or a
 * dictionary of states from which /AS picks one. A state dictionary without
 * the named state (a check box whose "Off" state has no stream) shows nothing.
 *
 * Where it goes (12.5.5): the form's BBox mapped by its Matrix, then the
 * upright box around that, which a scale-and-translate matrix A maps onto the
 * annotation's Rect. Painting the form with `A cm ... Do` gives Matrix × A,
 * because Do applies the form's own Matrix first.
 */
import { PDFArray, PDFDict, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { operations } from '../../core/content-lexer';
import { boxToBox, IDENTITY, matrixFrom, transformBox } from '../../core/interpret/matrix';
import type { Matrix } from '../../core/interpret/types';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { rectFrom } from '../../core/page-boxes';
import { getArray, getDict, getName, getNumber, name, numbersOf, resolve, resolvedItems } from '../../core/pdf-objects';
import { nameToken, numberToken } from '../../core/content-writer';

const INVISIBLE = 1;
const HIDDEN = 1 << 1;
const PRINT = 1 << 2;
export const NO_ROTATE = 1 << 4;
const NO_VIEW = 1 << 5;

/** Annotation subtypes of ISO 32000-2: for these the Invisible flag does not apply. */
const STANDARD_SUBTYPES = new Set([
  'Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut',
  'Caret', 'Stamp', 'Ink', 'Popup', 'FileAttachment', 'Sound', 'Movie', 'Screen', 'Widget', 'PrinterMark', 'TrapNet', 'Watermark',
  '3D', 'Redact', 'Projection', 'RichMedia',
]);

export type PrintState = 'prints' | 'print-only' | 'never';

export function flagsOf(annot: PDFDict): number {
  const f = getNumber(annot, 'F') ?? 0;
  return Number.isInteger(f) ? f : 0;
}

export function printState(annot: PDFDict): PrintState {
  const flags = flagsOf(annot);
  if (!(flags & PRINT) || flags & HIDDEN) return 'never';
  if (flags & INVISIBLE && !STANDARD_SUBTYPES.has(getName(annot, 'Subtype') ?? '')) return 'never';
  return flags & NO_VIEW ? 'print-only' : 'prints';
}

export type Appearance =
  | { kind: 'stream'; stream: PDFStream; ref: PDFRef | undefined }
  /** A state dictionary without a stream for the current state: a reader draws nothing. */
  | { kind: 'empty' }
  /** No usable normal appearance: a reader may make one up, so what prints is unknown. */
  | { kind: 'missing' };

export function normalAppearance(context: PDFContext, annot: PDFDict): Appearance {
  let raw: PDFObject | undefined = getDict(annot, 'AP')?.get(name('N'));
  let n = resolve(context, raw);
  if (n instanceof PDFDict) {
    const entries = n.entries();
    const state = getName(annot, 'AS');
    // Without /AS a single state is unambiguous; several are not and none is shown.
    raw = state !== undefined ? n.get(name(state)) : entries.length === 1 ? entries[0]![1] : undefined;
    n = resolve(context, raw);
    if (!(n instanceof PDFStream)) return { kind: 'empty' };
  }
  if (!(n instanceof PDFStream)) return { kind: 'missing' };
  return { kind: 'stream', stream: n, ref: raw instanceof PDFRef ? raw : undefined };
}

/** Matrix A of 12.5.5 for this appearance and annotation, or null without a usable Rect or BBox. */
export function placement(context: PDFContext, annot: PDFDict, form: PDFStream): Matrix | null {
  const rect = rectFrom(resolve(context, annot.get(name('Rect'))));
  const bbox = rectFrom(resolve(context, form.dict.get(name('BBox'))));
  if (!rect || !bbox) return null;
  const matrix = matrixFrom(numbersOf(getArray(form.dict, 'Matrix'))) ?? ([...IDENTITY] as Matrix);
  const box = transformBox(matrix, bbox[0], bbox[1], bbox[2], bbox[3]);
  if (!(box[2] > box[0]) || !(box[3] > box[1])) return null;
  return boxToBox(box, rect);
}

/**
 * Collects appearances to draw on one page, then writes them after the page's
 * content in one go: the old content is wrapped in q … Q (as many Q as it
 * leaves open), so whatever graphics state it ends in cannot shift the
 * appearances; each is painted as a form XObject under a fresh resource name.
 */
export class PageDrawer {
  private readonly lines: string[] = [];
  private xobjects: PDFDict | undefined;
  private properties: PDFDict | undefined;
  private resources: PDFDict | undefined;

  constructor(private readonly doc: PDFDocument, private readonly page: PDFDict) {}

  get count(): number {
    return this.lines.length;
  }

  /** Paints `form` with matrix A; `oc` (the annotation's /OC) keeps it inside that optional content. */
  draw(form: PDFStream, ref: PDFRef | undefined, a: Matrix, oc: PDFObject | undefined): void {
    const ctx = this.doc.context;
    // Appearance streams often omit Type and Subtype, which Do needs.
    if (!form.dict.has(name('Subtype'))) form.dict.set(name('Subtype'), name('Form'));
    if (!form.dict.has(name('Type'))) form.dict.set(name('Type'), name('XObject'));
    const res = this.ownResources();
    this.xobjects ??= privateSub(ctx, res, 'XObject');
    const xName = freshName(this.xobjects, 'Fl');
    this.xobjects.set(name(xName), ref ?? ctx.register(form));
    let text = `q ${a.map(numberToken).join(' ')} cm ${nameToken(xName)} Do Q`;
    const ocRaw = oc;
    if (ocRaw && resolve(ctx, ocRaw) instanceof PDFDict) {
      this.properties ??= privateSub(ctx, res, 'Properties');
      const pName = freshName(this.properties, 'FlOC');
      this.properties.set(name(pName), ocRaw);
      text = `/OC ${nameToken(pName)} BDC ${text} EMC`;
    }
    this.lines.push(text);
  }

  /** Writes the collected drawing; false when there was none. */
  commit(): boolean {
    if (this.lines.length === 0) return false;
    const ctx = this.doc.context;
    const contents = this.page.get(name('Contents'));
    const open = openDepth(ctx, contents);
    const items: PDFObject[] = [];
    const arr = resolve(ctx, contents);
    if (arr instanceof PDFArray) for (let i = 0; i < arr.size(); i++) items.push(arr.get(i));
    else if (contents !== undefined && arr instanceof PDFStream) items.push(contents);
    const before = ctx.register(ctx.stream('q\n'));
    const after = ctx.register(ctx.flateStream(`\n${'Q\n'.repeat(open + 1)}${this.lines.join('\n')}\n`));
    this.page.set(name('Contents'), ctx.obj([before, ...items, after]));
    return true;
  }

  /** A resources dictionary of this page alone (inherited or shared ones are copied), so other pages do not change. */
  private ownResources(): PDFDict {
    if (this.resources) return this.resources;
    const ctx = this.doc.context;
    const current = inheritedResources(this.page);
    const copy = current ? current.clone(ctx) : ctx.obj({});
    this.page.set(name('Resources'), copy);
    this.resources = copy;
    return copy;
  }
}

/** A copy of resources[key] set on `res`, so adding entries does not reach dictionaries shared with others. */
function privateSub(ctx: PDFContext, res: PDFDict, key: string): PDFDict {
  const existing = getDict(res, key);
  const copy = existing ? existing.clone(ctx) : ctx.obj({});
  res.set(name(key), copy);
  return copy;
}

function freshName(dict: PDFDict, prefix: string): string {
  const used = new Set(dict.keys().map((k) => k.decodeText()));
  let i = 1;
  while (used.has(`${prefix}${i}`)) i++;
  return `${prefix}${i}`;
}

/** How many q the page content leaves open at its end (0 when it cannot be read: a Q too many would be an error). */
function openDepth(ctx: PDFContext, contents: PDFObject | undefined): number {
  if (contents === undefined) return 0;
  const bytes = contentBytes(ctx, contents);
  if (bytes === null) return 0;
  let depth = 0;
  for (const op of operations(bytes)) {
    if (op.op === 'q') depth++;
    else if (op.op === 'Q' && depth > 0) depth--;
  }
  return depth;
}

/** The annotation dictionaries of a page, in painting order. */
export function pageAnnotations(context: PDFContext, page: PDFDict): PDFDict[] {
  return resolvedItems(context, page.get(name('Annots'))).filter((a): a is PDFDict => a instanceof PDFDict);
}
