/**
 * What a page paints from: its content streams (one or several, joined), the
 * resources they use (inherited through the page tree when the page has none),
 * and its annotations' appearance streams. Shared by the content scan and the
 * resource walk.
 */
import { PDFDict, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { inherited, isDict } from './inherited';
import { getDict, name, resolve, resolvedItems, streamBytes } from './pdf-objects';

/** Page resources, inherited from the page tree when the page has none. */
export function inheritedResources(page: PDFDict): PDFDict | undefined {
  return inherited(page, 'Resources', { maxDepth: Infinity, accept: isDict });
}

/** A page's content: one stream or an array of streams, joined (splits fall between tokens). */
export function contentBytes(context: PDFContext, contents: ReturnType<PDFDict['get']>): Uint8Array | null {
  const parts: Uint8Array[] = [];
  for (const item of resolvedItems(context, contents)) {
    if (!(item instanceof PDFStream)) continue;
    const b = streamBytes(item);
    if (b === null) return null;
    parts.push(b, NEWLINE);
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
const NEWLINE = new Uint8Array([0x0a]);

/** Normal appearance streams of a page's annotations (a stream, or one per appearance state). */
export function appearanceStreams(context: PDFContext, page: PDFDict): PDFStream[] {
  const out: PDFStream[] = [];
  for (const annot of resolvedItems(context, page.get(name('Annots')))) {
    if (!(annot instanceof PDFDict)) continue;
    const n = resolve(context, getDict(annot, 'AP')?.get(name('N')));
    if (n instanceof PDFStream) out.push(n);
    else if (n instanceof PDFDict) {
      for (const [, v] of n.entries()) {
        const s = resolve(context, v);
        if (s instanceof PDFStream) out.push(s);
      }
    }
  }
  return out;
}
