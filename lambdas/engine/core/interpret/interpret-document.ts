/**
 * Entry points of the content interpreter: a page's inventory (PageInventory,
 * types.ts) from its content, the forms, patterns, glyph procedures and
 * soft masks it paints, and its annotations' appearances.
 *
 * Interpreting never throws for a malformed or hostile file: budgets (content
 * operations per document, nesting depth, a deadline, images per page) and
 * unreadable streams end up as LimitHits in the page's inventory, which is
 * then partial and says so. Caches (fonts, colour spaces, paints, decoded
 * forms) are shared across the pages of one run.
 */
import { PDFDict, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { readPageBoxes } from '../page-boxes';
import { inheritedResources } from '../page-content';
import { decodeStream, getBool, getDict, getName, name, resolvedItems } from '../pdf-objects';
import { paintAnnotations } from './annotations';
import { DocumentRun, InterpretStop, type InterpretOptions } from './document-run';
import { Executor, isStrictInterpretation } from './executor';
import { GraphicsState } from './graphics-state';
import type { Matrix, PageInventory } from './types';
import { IDENTITY } from './matrix';

/** Every page of the document, in order. */
export function interpretDocument(doc: PDFDocument, options: InterpretOptions = {}): PageInventory[] {
  const interpret = pageInterpreter(doc, options);
  return doc.getPages().map((_, i) => interpret(i));
}

/** A function interpreting pages one at a time with shared caches and one operation budget (for callers that stream pages). */
export function pageInterpreter(doc: PDFDocument, options: InterpretOptions = {}): (pageIndex: number) => PageInventory {
  const run = new DocumentRun(doc.context, options);
  const pages = doc.getPages();
  return (pageIndex) => {
    const page = pages[pageIndex];
    if (!page) throw new RangeError(`page index ${pageIndex} is outside 0–${pages.length - 1}`);
    return interpretWith(run, page.node, pageIndex + 1);
  };
}

function interpretWith(run: DocumentRun, node: PDFDict, pageNo: number): PageInventory {
  const context = run.context;
  const boxes = readPageBoxes(context, node);
  const collector = run.startPage(pageNo, boxes.userUnit, boxes.crop);
  run.observer?.startPage?.(pageNo, node);
  try {
    if (Date.now() > run.deadline) throw new InterpretStop('time', 'the time budget for reading page content ran out');
    if (run.ops >= run.maxOperations) throw new InterpretStop('operations', `more than ${run.maxOperations} content operations in the document`);
    const resources = inheritedResources(node);
    const group = getDict(node, 'Group');
    if (group && getName(group, 'S') === 'Transparency') {
      const cs = group.get(name('CS'));
      collector.transparencyUse('group', null, {
        groupColourSpace: cs !== undefined ? run.colourSpaces.ofObject(cs, resources) : null,
        isolated: getBool(group, 'I') === true,
        knockout: getBool(group, 'K') === true,
      });
    }
    const content = pageContent(context, node);
    for (const failure of content.failures) {
      collector.limit('undecodable-content', `the page content stream ${failure}`);
      run.unreadFonts(resources);
    }
    if (content.bytes) {
      const base = IDENTITY as Matrix;
      const x = new Executor(run, resources, new GraphicsState(), { within: 'page', content: true, ink: true, vectors: true, uncoloured: false, baseCtm: base });
      x.execute(run.operationsOf(content.bytes));
    }
    paintAnnotations(run, node, resources);
  } catch (err) {
    if (err instanceof InterpretStop) collector.limit(err.limit, err.detail);
    else if (isStrictInterpretation()) throw err;
    // An object model pdf-lib cannot walk: what was collected stands, and the page says it is partial.
    else collector.limit('undecodable-content', `the page could not be read completely (${err instanceof Error ? err.message : String(err)})`);
  }
  return collector.finish();
}

/** A page's content streams decoded and joined (a split may fall between tokens), with the parts that failed. */
function pageContent(context: PDFContext, node: PDFDict): { bytes: Uint8Array | null; failures: string[] } {
  const parts: Uint8Array[] = [];
  const failures: string[] = [];
  for (const item of resolvedItems(context, node.get(name('Contents')))) {
    if (!(item instanceof PDFStream)) continue;
    const decoded = decodeStream(item);
    if (decoded.bytes) parts.push(decoded.bytes);
    else failures.push(`could not be decoded (${decoded.reason})`);
  }
  if (parts.length === 0) return { bytes: null, failures };
  if (parts.length === 1) return { bytes: parts[0]!, failures };
  const total = parts.reduce((n, p) => n + p.length + 1, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    out[off + p.length] = 0x0a;
    off += p.length + 1;
  }
  return { bytes: out, failures };
}
