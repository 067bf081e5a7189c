/**
 * The interactive form's field tree (ISO 32000-1 12.7.3): every field reached
 * from AcroForm Fields through Kids, read once per document, with the helpers
 * the form and signature rules share (qualified names, inherited entries, the
 * text of rich-text values).
 */
import { PDFDict, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getText, name, resolve, resolvedItems, streamBytes, textOf } from '../../core/pdf-objects';
import { fact } from '../fact';
import { formFieldDicts, MAX_FIELD_DEPTH } from '../../core/form-fields';

/** Every field dictionary of the interactive form, depth first (widgets merged with their field included). */
export const formFields = fact('interactive/form-fields', (m): PDFDict[] => formFieldDicts(m.context, m.catalog));

/** The fully qualified field name (T of the field and its ancestors joined by dots), for examples. */
export function fieldName(ctx: PDFContext, field: PDFDict): string {
  const parts: string[] = [];
  let node: PDFDict | undefined = field;
  const seen = new Set<PDFDict>();
  while (node && !seen.has(node) && parts.length < MAX_FIELD_DEPTH) {
    seen.add(node);
    const t = getText(node, 'T');
    if (t !== undefined) parts.unshift(t);
    const parent = resolve(ctx, node.get(name('Parent')));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return parts.join('.');
}

/** An inheritable field entry (V, FT, DA…), from the field or the nearest ancestor that has it. */
export function inheritedEntry(ctx: PDFContext, field: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = field;
  const seen = new Set<PDFDict>();
  for (let depth = 0; node && !seen.has(node) && depth < MAX_FIELD_DEPTH; depth++) {
    seen.add(node);
    const v = resolve(ctx, node.get(name(key)));
    if (v !== undefined) return v;
    const parent = resolve(ctx, node.get(name('Parent')));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return undefined;
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

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The plain text of a rich-text (XHTML) string: markup removed, character references decoded. */
export function richTextPlain(xhtml: string): string {
  return xhtml
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (all, ref: string) => {
      if (ref[0] === '#') {
        const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return ENTITIES[ref] ?? all;
    });
}

/**
 * Two texts are textually equivalent when they carry the same characters;
 * whitespace is not compared, because rich text turns paragraph and line
 * breaks into markup that plain text writes as CR, LF or nothing.
 */
export function textuallyEquivalent(a: string, b: string): boolean {
  const squeeze = (s: string) => s.replace(/[\s\u00a0\u200b\ufeff]+/g, '');
  return squeeze(a) === squeeze(b);
}
