/**
 * The interactive form's field tree (ISO 32000-1 12.7.3): every field reached
 * from AcroForm Fields through Kids, read once per document, with the helpers
 * the form and signature rules share (qualified names, the text of rich-text
 * values). Inherited entries and text values are core's (core/form-fields.ts),
 * which autofix shares.
 */
import { PDFDict, type PDFContext } from '@cantoo/pdf-lib';
import { getText, name, resolve } from '../../core/pdf-objects';
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
