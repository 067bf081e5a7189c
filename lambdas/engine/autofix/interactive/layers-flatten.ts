/**
 * layers.flatten: bakes the default layer configuration into the file. What
 * the default view shows stays exactly as drawn; content of hidden layers is
 * taken out; then the layer machinery goes (/OCProperties, /OC entries, and
 * the OC marks in content), so every reader and RIP shows the same thing.
 *
 * Where layers act, and what happens there:
 * - marked content `/OC /name BDC … EMC` in page content, form XObjects,
 *   annotation appearances, tiling patterns and soft-mask groups: the marks go;
 *   inside a hidden one, painting goes but the graphics and text state it sets
 *   stays, exactly as readers treat hidden content (ISO 32000-1 8.11.3.2: q/Q,
 *   cm, colours, fonts and text positioning still apply; a path's painting
 *   operator becomes `n`, so a clip it sets still clips);
 * - XObjects (images, forms) with /OC: a `Do` of a hidden one goes, the entry
 *   goes from every XObject;
 * - annotations with /OC: hidden ones are removed, the entry goes from the rest.
 *
 * Content streams are rewritten from the content lexer's operations with
 * core/content-writer.ts; inline images are copied byte for byte
 * (core/inline-images.ts).
 * One case is refused rather than approximated: hidden text followed, in the
 * same text line, by visible text — the visible text's position depends on the
 * width of the hidden one. Then, as whenever a stream cannot be read or its
 * inline images not located, nothing at all is changed and skipReason says why.
 *
 * Not visited: Type 3 glyph procedures (optional content there is unheard of).
 */
import { PDFDict, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { isName, operations, type Operation } from '../../core/content-lexer';
import { ContentBuilder, operationText, withContent } from '../../core/content-writer';
import { inlineImageSpansOf } from '../../core/inline-images';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { getDict, getName, name, resolve, resolvedItems, streamBytes } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { dropStructReferences, removeFromPage } from './annotation-removal';
import { pageAnnotations } from './appearance-placement';
import { OcVisibility, type OcEvent } from '../../core/oc-visibility';

const PAINT_PATH = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);
const DROP_WHEN_HIDDEN = new Set(['sh', 'Do', 'BI', 'Tj', 'TJ', 'MP', 'DP']);
const NEW_LINE = new Set(['Td', 'TD', 'Tm', 'T*', 'BT', 'ET', "'", '"']);

class Refused extends Error {}

export function flattenLayers(doc: PDFDocument, opts: { use: OcEvent }): FixOutcome {
  const context = doc.context;
  const catalog = doc.catalog;
  const props = getDict(catalog, 'OCProperties');
  if (!catalog.has(name('OCProperties'))) return { count: 0, pages: [], detail: 'no layers' };
  const vis = new OcVisibility(context, props, opts.use);
  const layers = resolvedItems(context, props?.get(name('OCGs'))).filter((g) => g instanceof PDFDict).length;

  // Plan: every rewrite is computed before anything changes, so a refusal leaves the file as it was.
  const planner = new Planner(context, vis);
  const pageRewrites = new Map<PDFDict, Uint8Array>();
  const hiddenAnnots = new Map<PDFDict, Set<PDFDict>>();
  const pagesChanged = new Set<number>();
  try {
    doc.getPages().forEach((p, i) => {
      const page = p.node;
      const resources = inheritedResources(page);
      const contents = page.get(name('Contents'));
      if (contents !== undefined) {
        const bytes = contentBytes(context, contents);
        if (bytes === null) throw new Refused(`the content of page ${i + 1} cannot be decoded`);
        const out = planner.content(bytes, resources, `page ${i + 1}`);
        if (out) {
          pageRewrites.set(page, out);
          pagesChanged.add(i + 1);
        }
      }
      for (const annot of pageAnnotations(context, page)) {
        if (annot.has(name('OC')) && !vis.visible(annot.get(name('OC')))) {
          const set = hiddenAnnots.get(page) ?? new Set<PDFDict>();
          set.add(annot);
          hiddenAnnots.set(page, set);
          pagesChanged.add(i + 1);
          continue;
        }
        for (const s of appearanceStreamsOf(context, annot)) planner.stream(s, resources, `an annotation on page ${i + 1}`);
      }
    });
  } catch (e) {
    if (e instanceof Refused) return { count: 0, pages: [], detail: 'layers not flattened', skipReason: `The layers were left as they are: ${e.message}.` };
    throw e;
  }

  // Apply.
  const refs = new Map<PDFStream, PDFRef>();
  for (const [ref, obj] of context.enumerateIndirectObjects()) if (obj instanceof PDFStream) refs.set(obj, ref);
  for (const [stream, bytes] of planner.rewrites) {
    const ref = refs.get(stream);
    if (ref) context.assign(ref, withContent(context, stream, bytes));
  }
  for (const [page, bytes] of pageRewrites) page.set(name('Contents'), context.register(context.flateStream(bytes)));
  const removed = new Set<PDFDict>();
  for (const [page, annots] of hiddenAnnots) {
    removeFromPage(context, page, annots);
    for (const a of annots) removed.add(a);
  }
  dropStructReferences(doc, removed);
  // The /OC entries and OC property lists go wherever they are; the groups' own dictionaries are then unreferenced.
  let ocEntries = 0;
  for (const [, obj] of context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (!dict) continue;
    if (dict.has(name('OC'))) {
      dict.delete(name('OC'));
      ocEntries++;
    }
    dropOcProperties(context, getDict(dict, 'Properties'));
    dropOcProperties(context, getDict(getDict(dict, 'Resources'), 'Properties'));
  }
  catalog.delete(name('OCProperties'));

  const hidden = vis.hiddenGroups().length;
  const detail = `${layers} layer(s) flattened (${hidden} hidden by default): ${pageRewrites.size + planner.rewrites.size} content stream(s) rewritten, ${planner.dropped} hidden drawing operation(s) removed, ${removed.size} hidden annotation(s) removed, ${ocEntries} /OC entr${ocEntries === 1 ? 'y' : 'ies'} removed`;
  return { count: Math.max(1, layers), pages: [...pagesChanged].sort((a, b) => a - b), detail };
}

/** Works out the rewritten content of each stream reached, recursing into forms, patterns and soft masks. */
class Planner {
  readonly rewrites = new Map<PDFStream, Uint8Array>();
  private readonly seen = new Set<PDFStream>();
  private readonly seenResources = new Set<PDFDict>();
  dropped = 0;

  constructor(private readonly context: PDFContext, private readonly vis: OcVisibility) {}

  stream(s: PDFStream, inherited: PDFDict | undefined, where: string): void {
    if (this.seen.has(s)) return;
    this.seen.add(s);
    const bytes = streamBytes(s);
    if (bytes === null) throw new Refused(`a content stream in ${where} cannot be decoded`);
    const out = this.content(bytes, getDict(s.dict, 'Resources') ?? inherited, where);
    if (out) this.rewrites.set(s, out);
  }

  /** The rewritten bytes of one content stream, or null when it has no optional content. */
  content(bytes: Uint8Array, resources: PDFDict | undefined, where: string): Uint8Array | null {
    this.resources(resources, where);
    const ops = [...operations(bytes)];
    // For each operation: undefined keeps it, null drops it, a string replaces it.
    const actions: (string | null | undefined)[] = new Array(ops.length);
    const stack: { oc: boolean; hidden: boolean }[] = [];
    let hiddenDepth = 0;
    let changed = false;
    let dirtyAdvance = false;
    ops.forEach((op, i) => {
      const hidden = hiddenDepth > 0;
      if (op.op === 'BDC' || op.op === 'BMC') {
        const oc = op.op === 'BDC' && isName(op.operands[0]) && op.operands[0].name === 'OC';
        const off = oc && !this.vis.visible(propertyOf(this.context, resources, op.operands[1]));
        stack.push({ oc, hidden: off });
        if (off) hiddenDepth++;
        if (oc) {
          actions[i] = null;
          changed = true;
        }
        return;
      }
      if (op.op === 'EMC') {
        const top = stack.pop();
        if (top?.hidden) hiddenDepth--;
        if (top?.oc) actions[i] = null;
        return;
      }
      if (NEW_LINE.has(op.op)) dirtyAdvance = false;
      if (hidden) {
        const replacement = hiddenReplacement(op);
        if (replacement !== undefined) {
          actions[i] = replacement;
          changed = true;
          this.dropped++;
          if (op.op === 'Tj' || op.op === 'TJ') dirtyAdvance = true;
        }
        return;
      }
      if ((op.op === 'Tj' || op.op === 'TJ') && dirtyAdvance) throw new Refused(`in ${where}, visible text continues a line whose start is in a hidden layer`);
      if (op.op === 'Do' && isName(op.operands[0])) {
        const xobject = resolve(this.context, getDict(resources, 'XObject')?.get(name(op.operands[0].name)));
        if (xobject instanceof PDFStream) {
          if (xobject.dict.has(name('OC')) && !this.vis.visible(xobject.dict.get(name('OC')))) {
            actions[i] = null;
            changed = true;
            this.dropped++;
          } else if (getName(xobject.dict, 'Subtype') === 'Form') this.stream(xobject, resources, where);
        }
      }
    });
    if (!changed) return null;
    return this.write(bytes, ops, actions, where);
  }

  private write(bytes: Uint8Array, ops: Operation[], actions: (string | null | undefined)[], where: string): Uint8Array {
    const spans = inlineImageSpansOf(bytes, ops);
    if (spans === null) throw new Refused(`the inline images in ${where} could not be located exactly`);
    const out = new ContentBuilder();
    let image = 0;
    ops.forEach((op, i) => {
      const action = actions[i];
      if (op.op === 'BI') {
        const span = spans[image++]!;
        if (action === undefined) {
          out.bytes(bytes.subarray(span.start, span.end));
          out.line('');
        }
        return;
      }
      if (action === null) return;
      out.line(action ?? operationText(op));
    });
    return out.build();
  }

  /** Tiling patterns and soft-mask groups named in the resources are content too. */
  private resources(resources: PDFDict | undefined, where: string): void {
    if (!resources || this.seenResources.has(resources)) return;
    this.seenResources.add(resources);
    for (const [, v] of getDict(resources, 'Pattern')?.entries() ?? []) {
      const p = resolve(this.context, v);
      if (p instanceof PDFStream) this.stream(p, undefined, where);
    }
    for (const [, v] of getDict(resources, 'ExtGState')?.entries() ?? []) {
      const group = resolve(this.context, getDict(asDictOf(this.context, v), 'SMask')?.get(name('G')));
      if (group instanceof PDFStream) this.stream(group, undefined, where);
    }
  }
}

/** What replaces an operation inside hidden content: undefined keeps it (state), null drops it (painting). */
function hiddenReplacement(op: Operation): string | null | undefined {
  if (PAINT_PATH.has(op.op)) return 'n';
  if (DROP_WHEN_HIDDEN.has(op.op)) return null;
  // ' and " move to the next line before showing: the move stays, the showing goes.
  if (op.op === "'") return 'T*';
  if (op.op === '"') {
    const [aw, ac] = op.operands;
    return typeof aw === 'number' && typeof ac === 'number' ? `${aw} Tw ${ac} Tc T*` : 'T*';
  }
  return undefined;
}

/** The property list a BDC names: a /Properties resource by name (inline dictionaries cannot name a layer). */
function propertyOf(context: PDFContext, resources: PDFDict | undefined, operand: unknown): PDFObject | undefined {
  if (!isName(operand as never)) return undefined;
  return resolve(context, getDict(resources, 'Properties')?.get(name((operand as { name: string }).name)));
}

function asDictOf(context: PDFContext, v: PDFObject | undefined): PDFDict | undefined {
  const d = resolve(context, v);
  return d instanceof PDFDict ? d : undefined;
}

function appearanceStreamsOf(context: PDFContext, annot: PDFDict): PDFStream[] {
  const out: PDFStream[] = [];
  const ap = getDict(annot, 'AP');
  for (const key of ['N', 'R', 'D']) {
    const v = resolve(context, ap?.get(name(key)));
    if (v instanceof PDFStream) out.push(v);
    else if (v instanceof PDFDict) for (const [, s] of v.entries()) {
      const st = resolve(context, s);
      if (st instanceof PDFStream) out.push(st);
    }
  }
  return out;
}

/** Removes the entries of a property-list resource dictionary that are layers (OCG) or layer memberships (OCMD). */
function dropOcProperties(context: PDFContext, properties: PDFDict | undefined): void {
  if (!properties) return;
  for (const [k, v] of properties.entries()) {
    const t = getName(asDictOf(context, v), 'Type');
    if (t === 'OCG' || t === 'OCMD') properties.delete(k);
  }
}
