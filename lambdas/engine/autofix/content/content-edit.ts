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
 * gray is luminosity, not ink; a glyph's colour is the text's). That reach is
 * criteria/content-fix-reach.ts, which the checks recommending these fixes
 * read too.
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
 * byte (core/content-writer.ts, core/inline-images.ts); a stream whose inline
 * images cannot be located exactly is not rewritten. The per-use bookkeeping
 * and the writing live in content-use.ts.
 */
import { PDFStream, type PDFDict, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { isName, type Operation } from '../../core/content-lexer';
import { nameToken, shortNumber, withContent } from '../../core/content-writer';
import { Executor } from '../../core/interpret/executor';
import { pageInterpreter } from '../../core/interpret/interpret-document';
import type { ContentObserver, ObservedStream } from '../../core/interpret/observer';
import { getDict, name } from '../../core/pdf-objects';
import { contentFixReaches } from '../../criteria/content-fix-reach';
import type { FixOutcome } from '../fix';
import { addResource, canWrite, resourceName, signature, sourceBytes, writeOperations, type NeededResource, type OpEdit, type Use } from './content-use';

export { writeOperations, type NeededResource } from './content-use';

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
      const editable = kind === 'form' && contentFixReaches(at.frame.within) && parent !== undefined && parent.editable && parent.canAddResources && parent.lastOperand !== null;
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

/**
 * The outcome of a content fix from its edit result: `done` says what was
 * changed; the notes say what was left and why, between the two every content
 * fix reports (forms copied, pages not read completely). When nothing changed
 * and something was left, skipReason starts with `nothing` and lists it.
 */
export function editOutcome(result: EditResult, done: string, nothing: string, notes: string[] = []): FixOutcome {
  const all = [
    result.copies > 0 ? `${result.copies} form XObject(s) copied because their uses differ` : '',
    ...notes,
    result.unreadPages.length > 0 ? `page(s) ${result.unreadPages.join(', ')} not read completely and left` : '',
  ].filter(Boolean);
  const detail = `${done}${all.length ? `; ${all.join('; ')}` : ''}`;
  if (result.tally === 0) return { count: 0, pages: [], detail, ...(all.length > 0 ? { skipReason: `${nothing}: ${all.join('; ')}.` } : {}) };
  return { count: result.tally, pages: result.pages, detail };
}

/** A number for written colour values: at most 4 decimals (tint conversions produce long fractions). */
export function colourNumber(v: number): string {
  return shortNumber(Math.min(1, Math.max(0, v)));
}
