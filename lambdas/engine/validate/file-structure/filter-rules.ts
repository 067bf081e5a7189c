/**
 * Stream filters (PDF/A-1 6.1.10, PDF/A-2/3 6.1.7.2, PDF/A-4 6.1.6.2) and
 * inline image filters (PDF/A-1 6.1.10, PDF/A-2/3 6.1.10, PDF/A-4 6.1.9).
 * LZW is patent-encumbered and excluded everywhere; from PDF/A-2 on, only the
 * standard filters are allowed, and Crypt only as the Identity filter.
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { getName, resolve } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import { type Example, type Rule } from '../rule';
import { operatorUse } from './operator-use';
import { streamDicts } from './syntax-rules';

const STANDARD = new Set(['ASCIIHexDecode', 'ASCII85Decode', 'FlateDecode', 'RunLengthDecode', 'CCITTFaxDecode', 'JBIG2Decode', 'DCTDecode', 'JPXDecode']);
/** Inline images may use these, with their abbreviations (ISO 32000-1 Table 94); never JBIG2 or JPX. */
const INLINE = new Set(['ASCIIHexDecode', 'ASCII85Decode', 'FlateDecode', 'RunLengthDecode', 'CCITTFaxDecode', 'DCTDecode', 'AHx', 'A85', 'Fl', 'RL', 'CCF', 'DCT']);

interface StreamFilter {
  objectNumber: number;
  filter: string;
  /** The Name entry of the filter's decode parameters (for Crypt), or null. */
  cryptName: string | null;
}

const streamFilters = fact('file-structure/stream-filters', (m): StreamFilter[] => {
  const out: StreamFilter[] = [];
  for (const [n, d] of streamDicts(m)) {
    const f = resolve(m.context, d.get(PDFName.of('Filter')));
    if (f === undefined) continue;
    const names = f instanceof PDFArray ? f.asArray().map((x) => resolve(m.context, x)) : [f];
    const parms = resolve(m.context, d.get(PDFName.of('DecodeParms')));
    names.forEach((x, i) => {
      const p = parms instanceof PDFArray ? resolve(m.context, parms.get(i)) : parms;
      const filter = x instanceof PDFName ? x.decodeText() : '(not a name)';
      out.push({ objectNumber: n, filter, cryptName: p instanceof PDFDict ? (getName(p, 'Name') ?? null) : null });
    });
  }
  return out;
});

function judged<T>(items: readonly T[], bad: (x: T) => boolean, ex: (x: T) => Example) {
  return { checked: items.length, failures: items.filter(bad).map(ex) };
}

const allowedFromPart2 = (s: StreamFilter): boolean => STANDARD.has(s.filter) || (s.filter === 'Crypt' && (s.cryptName === null || s.cryptName === 'Identity'));

export const FILTER_RULES: readonly Rule[] = [
  {
    id: 'pdfa.filter.lzw',
    clauses: { 1: '6.1.10' },
    description: 'The LZWDecode filter shall not be used.',
    test: (f) => judged(streamFilters(f), (s) => s.filter === 'LZWDecode' || s.filter === 'LZW', (s) => ({ objectNumber: s.objectNumber, context: `filter ${s.filter}` })),
  },
  {
    id: 'pdfa.filter.standard',
    clauses: { 2: '6.1.7.2', 3: '6.1.7.2', 4: '6.1.6.2' },
    description: 'Streams shall use only the standard filters of ISO 32000 except LZWDecode; Crypt only when its Name is Identity.',
    test: (f) => judged(streamFilters(f), (s) => !allowedFromPart2(s), (s) => ({ objectNumber: s.objectNumber, context: `filter ${s.filter}${s.cryptName ? ` (${s.cryptName})` : ''}` })),
  },
  {
    id: 'pdfa.inline-image.filter',
    clauses: { 1: '6.1.10', 2: '6.1.10', 3: '6.1.10', 4: '6.1.9' },
    description: (p) =>
      p.part === 1 ? 'Inline images shall not use the LZW filter.' : 'Inline images shall use only the standard filters allowed for inline images: not LZW, Crypt, JBIG2, JPX or an unknown filter.',
    test: (f, p) => {
      const images = collected(f, operatorUse).inlineImages;
      const bad = (name: string): boolean => (p.part === 1 ? name === 'LZW' || name === 'LZWDecode' : !INLINE.has(name));
      return judged(images, (i) => i.filters.some(bad), (i) => ({ page: i.page, context: `inline image filter ${i.filters.join(', ')}` }));
    },
  },
];

