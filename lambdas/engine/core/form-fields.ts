/**
 * The interactive form's field tree (ISO 32000-1 12.7.3): every field
 * dictionary reached from the AcroForm's Fields through Kids, depth first,
 * widgets merged with their field included. A field reached twice (a shared
 * kid, a cycle) is listed once; nesting deeper than MAX_FIELD_DEPTH is not
 * followed (real forms nest a few levels), and neither is a Parent chain
 * longer than that.
 */
import { PDFDict, PDFName, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { inherited } from './inherited';
import { getDict, name, resolvedItems, streamBytes, textOf } from './pdf-objects';

export const MAX_FIELD_DEPTH = 32;

export function formFieldDicts(context: PDFContext, catalog: PDFDict): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > MAX_FIELD_DEPTH) return;
    seen.add(node);
    out.push(node);
    for (const kid of resolvedItems(context, node.get(name('Kids')))) if (kid instanceof PDFDict) visit(kid, depth + 1);
  };
  for (const f of resolvedItems(context, getDict(catalog, 'AcroForm')?.get(name('Fields')))) if (f instanceof PDFDict) visit(f, 0);
  return out;
}

/** An inheritable field entry (V, FT, DA…), from the field or the nearest ancestor that has it. */
export function inheritedFieldEntry(field: PDFDict, key: string): PDFObject | undefined {
  return inherited(field, key, { maxDepth: MAX_FIELD_DEPTH });
}

/** FT is inheritable (ISO 32000-1 12.7.3.1): a widget merged with its field, or its Parent chain; an FT that is not a name, or the empty name, is passed over. */
export function inheritedFieldType(field: PDFDict): string | null {
  const ft = inherited(field, 'FT', { maxDepth: MAX_FIELD_DEPTH, accept: (v): v is PDFName => v instanceof PDFName && v.decodeText() !== '' });
  return ft ? ft.decodeText() : null;
}

/** A text string or a text stream (the forms RV, V and RC may take), as text; undefined otherwise. */
export function textValue(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFStream) {
    const bytes = streamBytes(obj);
    if (!bytes) return undefined;
    // A text stream is PDFDocEncoding or UTF-16BE with a byte order mark (ISO 32000-1 7.9.3); UTF-8 for RC in practice.
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
    return new TextDecoder('utf-8').decode(bytes);
  }
  return textOf(obj);
}
