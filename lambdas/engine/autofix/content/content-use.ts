/**
 * The bookkeeping behind content-edit.ts: one use of a content stream (a page's
 * content, or a form as painted from one place) with the edits decided for it,
 * and how such a use is written back — its signature (which uses may share one
 * rewrite), whether it can be written faithfully, the resources its edits
 * name, and the rewritten bytes.
 */
import { PDFDict, PDFRef, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { operations } from '../../core/content-lexer';
import { ContentBuilder, operationText } from '../../core/content-writer';
import { inlineImageSpansOf } from '../../core/inline-images';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { getDict, name, resolve, streamBytes } from '../../core/pdf-objects';

/**
 * A resource an edit's text names: added to the stream's resources when the
 * edit is written. `make` gives a new object (registered then) or a reference
 * to an existing one (named as it is).
 */
export interface NeededResource {
  category: 'ExtGState' | 'ColorSpace';
  key: string;
  make: (context: PDFContext) => PDFObject;
}

/** What is written around, or instead of, one operation. */
export interface OpEdit {
  before: string[];
  replace?: string;
  after: string[];
  tally: number;
}

/** A `Do` in a use that paints a form: the form's own use, to rename the operand when it gets a copy. */
export interface Link {
  index: number;
  operand: string;
  child: Use;
}

/** One use of a stream: a page's content (stream null), or a form as painted from one place. */
export interface Use {
  stream: PDFStream | null;
  page: number;
  pageNode: PDFDict | null;
  resources: PDFDict | undefined;
  canAddResources: boolean;
  editable: boolean;
  count: number;
  pathStart: number;
  lastOperand: string | null;
  edits: Map<number, OpEdit>;
  needs: Map<string, NeededResource>;
  links: Link[];
  sig?: string;
}

/** A use's signature: its own edits and those of the forms it paints; '' when nothing changes. */
export function signature(u: Use): string {
  if (u.sig !== undefined) return u.sig;
  if (!u.editable) return (u.sig = '');
  const parts: string[] = [];
  for (const i of [...u.edits.keys()].sort((a, b) => a - b)) {
    const e = u.edits.get(i)!;
    parts.push(`${i}:${JSON.stringify([e.before, e.replace ?? null, e.after])}`);
  }
  for (const l of u.links) {
    const s = signature(l.child);
    if (s !== '') parts.push(`D${l.index}{${s}}`);
  }
  if (parts.length > 0) parts.push(...[...u.needs.keys()].sort());
  return (u.sig = parts.join('|'));
}

export function sourceBytes(context: PDFContext, u: Use): Uint8Array | null {
  return u.stream ? streamBytes(u.stream) : contentBytes(context, u.pageNode!.get(name('Contents')));
}

/** The use's own edits apply (operations and inline images located) and the resources it needs can be added. */
export function canWrite(context: PDFContext, u: Use): boolean {
  const bytes = sourceBytes(context, u);
  if (bytes === null || writeOperations(bytes, u.edits) === null) return false;
  const resources = u.stream ? getDict(u.stream.dict, 'Resources') : inheritedResources(u.pageNode!);
  for (const need of u.needs.values()) {
    const existing = getDict(resources, need.category)?.get(name(need.key));
    if (existing !== undefined && String(resolve(context, existing)) !== String(resolve(context, need.make(context)))) return false;
  }
  return true;
}

/** Names `ref` in the XObject resources of `u` (an existing entry for it, else a fresh name based on `base`). */
export function resourceName(context: PDFContext, u: Use, base: string, ref: PDFRef): string | null {
  const resources = ensureResources(context, u);
  if (!resources) return null;
  let xobjects = getDict(resources, 'XObject');
  if (!xobjects) {
    xobjects = context.obj({});
    resources.set(name('XObject'), xobjects);
  }
  for (const [k, v] of xobjects.entries()) if (v === ref) return k.decodeText();
  for (let n = 1; ; n++) {
    const key = `${base}_pl${n}`;
    if (!xobjects.has(name(key))) {
      xobjects.set(name(key), ref);
      return key;
    }
  }
}

/** Adds a needed resource under its key (canWrite checked that the key is free or holds the same). */
export function addResource(context: PDFContext, u: Use, need: NeededResource): void {
  const resources = ensureResources(context, u);
  if (!resources) return;
  let dict = getDict(resources, need.category);
  if (!dict) {
    dict = context.obj({});
    resources.set(name(need.category), dict);
  }
  const existing = dict.get(name(need.key));
  if (existing !== undefined) return;
  const made = need.make(context);
  dict.set(name(need.key), made instanceof PDFRef ? made : context.register(made));
}

/** The resources a use's names resolve in, created on a page that has none. */
function ensureResources(context: PDFContext, u: Use): PDFDict | undefined {
  if (u.stream) return getDict(u.stream.dict, 'Resources');
  const found = inheritedResources(u.pageNode!);
  if (found) return found;
  const fresh = context.obj({});
  u.pageNode!.set(name('Resources'), fresh);
  u.resources = fresh;
  return fresh;
}

/**
 * The stream written again with `edits` applied, or null when it cannot be
 * done faithfully (inline images not located, fewer operations than edited).
 */
export function writeOperations(bytes: Uint8Array, edits: ReadonlyMap<number, { before: string[]; replace?: string; after: string[] }>): Uint8Array | null {
  const ops = [...operations(bytes)];
  for (const i of edits.keys()) if (i >= ops.length) return null;
  const spans = inlineImageSpansOf(bytes, ops);
  if (spans === null) return null;
  const out = new ContentBuilder();
  let image = 0;
  ops.forEach((op, i) => {
    const e = edits.get(i);
    for (const t of e?.before ?? []) out.line(t);
    if (op.op === 'BI') {
      const span = spans[image++]!;
      out.bytes(bytes.subarray(span.start, span.end));
      out.line('');
    } else out.line(e?.replace ?? operationText(op));
    for (const t of e?.after ?? []) out.line(t);
  });
  return out.build();
}
