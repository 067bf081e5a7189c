/**
 * Rewriting content streams operation by operation, knowing the graphics
 * state at each one. The content fixes (gray to K, overprint, rich black…)
 * decide per operation what to write instead; this module runs the content
 * interpreter (core/interpret) with an observer, collects those decisions for
 * every page and every form XObject the page paints, and writes the streams
 * back.
 *
 * Why the interpreter: whether `0.5 sc` is gray, how big a `Tj` prints and
 * which colour a stroke has depend on state set earlier, often in the stream
 * that paints a form. The observer sees each operation before the interpreter
 * acts on it, so an editor reads the state in effect for it.
 *
 * What is edited: page content and the form XObjects it paints (directly or
 * nested). Never edited: annotation appearances, tiling patterns, Type 3
 * glyph procedures and soft masks — nor forms reached from them (a soft mask's
 * gray is luminosity, not ink; a glyph's colour is the text's).
 *
 * Shared forms: a form painted several times may need different changes per
 * use (text at 10 pt on one page, 30 pt on another). Each use gets a signature
 * (its edits and those of the forms it paints); uses with equal signatures
 * share one rewrite. When every use agrees the form is rewritten in place;
 * otherwise it keeps its original content for the uses needing no change and
 * each other variant gets a copy, named in the resources of the stream that
 * paints it (the `Do` operand is renamed there).
 *
 * Pages whose interpretation stopped early (operation budget, time) or could
 * not be read completely are left alone: half a page's decisions are not a
 * sound basis for rewriting it.
 *
 * Writing: unchanged operations are written from the lexer's values (numbers
 * exactly, strings as bytes, names escaped), inline images are copied byte for
 * byte (interactive/inline-images.ts); a stream whose inline images cannot be
 * located exactly is not rewritten.
 */
import { PDFDict, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { isName, operations, type Operand, type Operation } from '../../core/content-lexer';
import { Executor } from '../../core/interpret/executor';
import { pageInterpreter } from '../../core/interpret/interpret-document';
import type { ContentObserver, ObservedStream } from '../../core/interpret/observer';
import { contentBytes, inheritedResources } from '../../core/page-content';
import { getDict, name, resolve, streamBytes } from '../../core/pdf-objects';
import { ContentBuilder, nameToken, stringToken } from '../interactive/content-writer';
import { inlineDataLength, inlineImageSpans } from '../interactive/inline-images';

/** A resource an edit's text names: added to the stream's resources when the edit is written. */
export interface NeededResource {
  category: 'ExtGState' | 'ColorSpace';
  key: string;
  make: (context: PDFContext) => PDFObject;
}

/** What an editor sees at one operation, and how it asks for changes. */
export interface EditSite {
  /** The executor, with the graphics state in effect before the operation. */
  readonly x: Executor;
  readonly op: Operation;
  readonly index: number;
  /** Index of the first operation of the path being built (for inserting state before it), or -1. */
  readonly pathStart: number;
  /** Resources can be added for this stream (page content, or a form with its own /Resources). */
  readonly canAddResources: boolean;
  /** Writes `text` instead of the operation (`tally`: how many things this fixes). */
  replace(text: string, tally?: number): void;
  /** Writes `text` before the operation at `at` (this one by default). */
  before(text: string, at?: number): void;
  after(text: string): void;
  /** Counts `n` things fixed at this operation without replacing it. */
  tally(n?: number): void;
  need(resource: NeededResource): void;
}

export type ContentEditor = (site: EditSite) => void;

export interface EditResult {
  /** Sum of the tallies of the edits written (a form rewritten once counts once). */
  tally: number;
  /** 1-based pages whose content, or a form they paint, changed. */
  pages: number[];
  /** Content streams rewritten (pages and forms) and forms copied because their uses differ. */
  streams: number;
  copies: number;
  /** Pages left alone because they could not be read completely. */
  unreadPages: number[];
}

interface OpEdit {
  before: string[];
  replace?: string;
  after: string[];
  tally: number;
}

interface Link {
  index: number;
  operand: string;
  child: Use;
}

interface Use {
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

const PATH_CONSTRUCTION = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're']);
const PATH_END = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);

/** Runs `editor` over every page and writes the changed streams back. */
export function editContent(doc: PDFDocument, editor: ContentEditor): EditResult {
  const context = doc.context;
  const roots: Use[] = [];
  const unreadPages: number[] = [];
  const uses = new Map<PDFStream, Use[]>();
  const byExecutor = new WeakMap<object, Use>();
  let stack: Use[] = [];
  const current: { root: Use | null } = { root: null };
  let currentPage = 0;
  let currentNode: PDFDict | null = null;

  const newUse = (stream: PDFStream | null, resources: PDFDict | undefined, canAdd: boolean, editable: boolean): Use => ({
    stream,
    page: currentPage,
    pageNode: currentNode,
    resources,
    canAddResources: canAdd,
    editable,
    count: 0,
    pathStart: -1,
    lastOperand: null,
    edits: new Map(),
    needs: new Map(),
    links: [],
  });

  const observer: ContentObserver = {
    startPage(page, node) {
      currentPage = page;
      currentNode = node;
      current.root = null;
      stack = [];
    },
    operation(at: ObservedStream, op: Operation) {
      let use = byExecutor.get(at);
      if (!use) {
        // The only stream not announced by enterStream is the page's own content.
        use = newUse(null, at.resources, true, true);
        byExecutor.set(at, use);
        current.root = use;
        stack = [use];
      }
      const index = use.count++;
      use.lastOperand = op.op === 'Do' && isName(op.operands[op.operands.length - 1]) ? (op.operands[op.operands.length - 1] as { name: string }).name : null;
      if (PATH_CONSTRUCTION.has(op.op) && use.pathStart < 0) use.pathStart = index;
      if (use.editable && at instanceof Executor) editor(site(use, at, op, index));
      if (PATH_END.has(op.op)) use.pathStart = -1;
    },
    enterStream(stream, kind, at) {
      const parent = stack[stack.length - 1];
      const own = getDict(stream.dict, 'Resources') !== undefined;
      // A renamed Do needs a resource entry in the parent: only where it may add one.
      const editable = kind === 'form' && at.frame.within === 'form' && parent !== undefined && parent.editable && parent.canAddResources && parent.lastOperand !== null;
      const use = newUse(stream, at.resources, own, editable);
      byExecutor.set(at, use);
      const list = uses.get(stream) ?? [];
      list.push(use);
      uses.set(stream, list);
      if (editable) parent!.links.push({ index: parent!.count - 1, operand: parent!.lastOperand!, child: use });
      stack.push(use);
    },
    leaveStream() {
      stack.pop();
    },
  };

  const interpret = pageInterpreter(doc, { observer });
  for (let i = 0; i < doc.getPageCount(); i++) {
    current.root = null;
    const inventory = interpret(i);
    const partial = inventory.limits.some(
      (l) => l.limit === 'operations' || l.limit === 'time' || (l.limit === 'undecodable-content' && l.detail.startsWith('the page could not be read')),
    );
    if (partial) unreadPages.push(i + 1);
    else if (current.root) roots.push(current.root);
  }
  // Forms painted on a page left alone keep their original content for that use.
  for (const list of uses.values()) for (const u of list) if (unreadPages.includes(u.page)) u.editable = false;

  // Signatures, then variants per form.
  for (const r of roots) signature(r);
  for (const list of uses.values()) for (const u of list) signature(u);
  // A variant that cannot be written faithfully keeps the original content (its uses then need no change).
  for (const r of roots) if (r.sig !== '' && !canWrite(context, r)) r.sig = '';
  for (const list of uses.values()) {
    const checked = new Map<string, boolean>();
    for (const u of list) {
      if (u.sig === '') continue;
      let ok = checked.get(u.sig!);
      if (ok === undefined) checked.set(u.sig!, (ok = canWrite(context, u)));
      if (!ok) u.sig = '';
    }
  }
  const refs = new Map<PDFStream, PDFRef>();
  for (const [ref, obj] of context.enumerateIndirectObjects()) if (obj instanceof PDFStream) refs.set(obj, ref);

  /** Per form and variant: the stream that will hold it (the form itself, or a copy). */
  const targets = new Map<PDFStream, Map<string, { stream: PDFStream; ref: PDFRef | null; copy: boolean }>>();
  let copies = 0;
  for (const [stream, list] of uses) {
    const bySig = new Map<string, number>();
    for (const u of list) bySig.set(u.sig!, (bySig.get(u.sig!) ?? 0) + 1);
    const changed = [...bySig.entries()].filter(([s]) => s !== '').sort((a, b) => b[1] - a[1]);
    if (changed.length === 0) continue;
    const ref = refs.get(stream) ?? null;
    const plan = new Map<string, { stream: PDFStream; ref: PDFRef | null; copy: boolean }>();
    changed.forEach(([sig], k) => {
      const inPlace = k === 0 && !bySig.has('') && ref !== null;
      if (inPlace) plan.set(sig, { stream, ref, copy: false });
      else {
        const copy = withContent(context, stream, new Uint8Array());
        plan.set(sig, { stream: copy, ref: context.register(copy), copy: true });
        copies++;
      }
    });
    targets.set(stream, plan);
  }

  // Write every variant once: forms (in place or into their copy), then pages.
  let tally = 0;
  let streams = 0;
  const pages = new Set<number>();
  const rewrite = (u: Use): Uint8Array => {
    const edits = new Map(u.edits);
    for (const link of u.links) {
      const target = targets.get(link.child.stream!)?.get(link.child.sig!);
      if (!target?.copy || edits.get(link.index)?.replace !== undefined) continue;
      const key = resourceName(context, u, link.operand, target.ref!);
      if (key === null) continue;
      const e = edits.get(link.index) ?? { before: [], after: [], tally: 0 };
      edits.set(link.index, { ...e, replace: `${nameToken(key)} Do` });
    }
    for (const need of u.needs.values()) addResource(context, u, need);
    // Checked writable before planning (canWrite); renaming a Do cannot make it unwritable.
    return writeOperations(sourceBytes(context, u)!, edits)!;
  };
  const tallyOf = (u: Use): number => [...u.edits.values()].reduce((n, e) => n + e.tally, 0);

  for (const [stream, plan] of targets) {
    for (const [sig, target] of plan) {
      const u = uses.get(stream)!.find((x) => x.sig === sig)!;
      context.assign(target.ref!, withContent(context, stream, rewrite(u)));
      tally += tallyOf(u);
      streams++;
    }
  }
  for (const r of roots) {
    if (r.sig === '') continue;
    r.pageNode!.set(name('Contents'), context.register(context.flateStream(rewrite(r))));
    tally += tallyOf(r);
    streams++;
    pages.add(r.page);
  }
  // Pages whose own content is unchanged but a form they paint changed.
  for (const list of uses.values()) for (const u of list) if (u.sig !== '') pages.add(u.page);

  return { tally, pages: [...pages].sort((a, b) => a - b), streams, copies, unreadPages };

  function site(use: Use, x: Executor, op: Operation, index: number): EditSite {
    const edit = (at: number): OpEdit => {
      let e = use.edits.get(at);
      if (!e) {
        e = { before: [], after: [], tally: 0 };
        use.edits.set(at, e);
      }
      return e;
    };
    return {
      x,
      op,
      index,
      pathStart: use.pathStart,
      canAddResources: use.canAddResources,
      replace(text, count = 1) {
        const e = edit(index);
        e.replace = text;
        e.tally += count;
      },
      before(text, at = index) {
        edit(at).before.push(text);
      },
      after(text) {
        edit(index).after.push(text);
      },
      tally(n = 1) {
        edit(index).tally += n;
      },
      need(resource) {
        use.needs.set(`${resource.category}/${resource.key}`, resource);
      },
    };
  }
}

/** A use's signature: its own edits and those of the forms it paints; '' when nothing changes. */
function signature(u: Use): string {
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

function sourceBytes(context: PDFContext, u: Use): Uint8Array | null {
  return u.stream ? streamBytes(u.stream) : contentBytes(context, u.pageNode!.get(name('Contents')));
}

/** The use's own edits apply (operations and inline images located) and the resources it needs can be added. */
function canWrite(context: PDFContext, u: Use): boolean {
  const bytes = sourceBytes(context, u);
  if (bytes === null || writeOperations(bytes, u.edits) === null) return false;
  const resources = u.stream ? getDict(u.stream.dict, 'Resources') : inheritedResources(context, u.pageNode!);
  for (const need of u.needs.values()) {
    const existing = getDict(resources, need.category)?.get(name(need.key));
    if (existing !== undefined && String(resolve(context, existing)) !== String(need.make(context))) return false;
  }
  return true;
}

/** Names `ref` in the XObject resources of `u` (an existing entry for it, else a fresh name based on `base`). */
function resourceName(context: PDFContext, u: Use, base: string, ref: PDFRef): string | null {
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
function addResource(context: PDFContext, u: Use, need: NeededResource): void {
  const resources = ensureResources(context, u);
  if (!resources) return;
  let dict = getDict(resources, need.category);
  if (!dict) {
    dict = context.obj({});
    resources.set(name(need.category), dict);
  }
  const existing = dict.get(name(need.key));
  if (existing === undefined) dict.set(name(need.key), context.register(need.make(context)));
}

/** The resources a use's names resolve in, created on a page that has none. */
function ensureResources(context: PDFContext, u: Use): PDFDict | undefined {
  if (u.stream) return getDict(u.stream.dict, 'Resources');
  const found = inheritedResources(context, u.pageNode!);
  if (found) return found;
  const fresh = context.obj({});
  u.pageNode!.set(name('Resources'), fresh);
  u.resources = fresh;
  return fresh;
}

/** A stream with `old`'s dictionary entries and new, Flate-compressed content. */
function withContent(context: PDFContext, old: PDFStream, bytes: Uint8Array): PDFStream {
  const fresh = context.flateStream(bytes);
  for (const [k, v] of old.dict.entries()) {
    const key = k.decodeText();
    if (key === 'Filter' || key === 'DecodeParms' || key === 'Length' || key === 'DL') continue;
    fresh.dict.set(k, v);
  }
  return fresh;
}

/**
 * The stream written again with `edits` applied, or null when it cannot be
 * done faithfully (inline images not located, fewer operations than edited).
 */
export function writeOperations(bytes: Uint8Array, edits: ReadonlyMap<number, { before: string[]; replace?: string; after: string[] }>): Uint8Array | null {
  const ops = [...operations(bytes)];
  for (const i of edits.keys()) if (i >= ops.length) return null;
  const images = ops.filter((o) => o.op === 'BI');
  let spans: { start: number; end: number }[] = [];
  if (images.length > 0) {
    spans = inlineImageSpans(bytes, (k) => {
      const d = images[k]?.operands[0];
      return d && typeof d === 'object' && 'dict' in d ? inlineDataLength(d.dict) : null;
    });
    if (spans.length !== images.length) return null;
  }
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

/** A number as PDF writes it: no exponent, and exactly the value read (1e-7 is 0.0000001). */
export function exactNumber(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', exp] = m;
  const digits = lead! + frac;
  const e = Number(exp);
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  return `${sign}${digits.padEnd(e + 1, '0').slice(0, e + 1)}${digits.length > e + 1 ? `.${digits.slice(e + 1)}` : ''}`;
}

export function operandText(o: Operand): string {
  if (o === null) return 'null';
  if (typeof o === 'number') return exactNumber(o);
  if (typeof o === 'boolean') return o ? 'true' : 'false';
  if (Array.isArray(o)) return `[${o.map(operandText).join(' ')}]`;
  if (isName(o)) return nameToken(o.name);
  if ('bytes' in o) return stringToken(o.bytes);
  return `<<${Object.entries(o.dict).map(([k, v]) => `${nameToken(k)} ${operandText(v)}`).join(' ')}>>`;
}

export function operationText(op: Operation): string {
  return op.operands.length === 0 ? op.op : `${op.operands.map(operandText).join(' ')} ${op.op}`;
}

/** A number for written colour values: at most 4 decimals (tint conversions produce long fractions). */
export function colourNumber(v: number): string {
  const r = Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
  return exactNumber(r);
}
