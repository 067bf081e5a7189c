/**
 * File structure: header, trailer, cross-reference and stream syntax, implementation limits, encryption.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import { condition, type Rule } from '../rule';

const ALL = { 1: '', 2: '', 3: '', 4: '' };
const same = (clause: string) => Object.fromEntries(Object.keys(ALL).map((k) => [k, clause]));

const HEADER_PATTERN: Record<number, RegExp> = { 1: /^%PDF-\d\.\d$/, 2: /^%PDF-1\.[0-7]$/, 3: /^%PDF-1\.[0-7]$/, 4: /^%PDF-2\.\d$/ };

export const FILE_STRUCTURE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.file.header',
    clauses: same('6.1.2'),
    description: (p) =>
      p.part === 4
        ? 'The file header shall begin at byte 0 and consist of "%PDF-2.n" followed by a single end-of-line marker.'
        : p.part === 1
          ? 'The % character of the file header shall occur at byte offset 0 of the file.'
          : 'The file header shall begin at byte 0 and consist of "%PDF-1.n" (n from 0 to 7) followed by a single end-of-line marker.',
    test: (f, p) => condition(f.pdf.header.offset === 0 && HEADER_PATTERN[p.part]!.test(f.pdf.header.line), { context: `header "${f.pdf.header.line}" at byte ${f.pdf.header.offset}` }),
  },
  {
    id: 'pdfa.file.binary-comment',
    clauses: same('6.1.2'),
    description: 'The header line shall be followed by a comment of a % character and at least four bytes with values above 127.',
    test: (f) => condition(f.pdf.header.binaryComment, { context: 'no binary comment after the header' }),
  },
  {
    id: 'pdfa.trailer.id',
    clauses: same('6.1.3'),
    description: 'The file trailer dictionary shall contain the ID keyword (file identifiers).',
    test: (f) => condition(f.facts.trailerId, { context: 'trailer has no ID' }),
  },
  {
    id: 'pdfa.trailer.encrypt',
    clauses: same('6.1.3'),
    description: 'The Encrypt key shall not be present in the trailer dictionary: the file shall not be encrypted.',
    test: (f) => condition(!f.facts.encrypted, { context: 'the file is encrypted' }),
  },
];
