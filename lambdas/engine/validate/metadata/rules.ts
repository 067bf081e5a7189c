/**
 * Metadata: the XMP packet, identification schemas, consistency with the Info dictionary, extension schemas.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import type { StandardProfile } from '../profiles';
import { condition, type Rule } from '../rule';

/** A rule about an object the file does not have (its absence is another rule's failure). */
const NOTHING_TO_CHECK = { checked: 0, failures: [] };

export const METADATA_RULES: readonly Rule[] = [
  {
    id: 'pdfa.metadata.present',
    clauses: { 1: '6.7.2', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The document catalog shall contain a Metadata stream with an XMP packet.',
    test: (f) => condition(f.facts.xmp.present && f.facts.xmp.readable, { context: f.facts.xmp.present ? 'the Metadata stream holds no readable XMP' : 'the catalog has no Metadata' }),
  },
  {
    id: 'pdfa.metadata.unfiltered',
    clauses: { 1: '6.7.2' },
    description: 'The catalog Metadata stream shall not contain the Filter key (it shall be uncompressed).',
    test: (f) => (f.facts.xmp.present ? condition(f.facts.xmp.filters.length === 0, { context: `Metadata stream is encoded with ${f.facts.xmp.filters.join(', ')}` }) : NOTHING_TO_CHECK),
  },
  {
    id: 'pdfa.metadata.packet-header',
    clauses: { 1: '6.7.5', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The XMP packet header shall not use the bytes or encoding attributes.',
    test: (f) => (f.facts.xmp.readable ? condition(f.facts.xmp.headerAttributes.length === 0, { context: `packet header has ${f.facts.xmp.headerAttributes.join(' and ')}` }) : NOTHING_TO_CHECK),
  },
  {
    id: 'pdfa.metadata.identification',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: 'The PDF/A part and conformance level shall be declared in XMP with the PDF/A identification schema (pdfaid).',
    test: (f) => condition(f.facts.xmp.pdfa?.part != null, { context: 'XMP has no pdfaid:part' }),
  },
  {
    id: 'pdfa.metadata.part',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) => `The value of pdfaid:part shall be ${p.part}, the part the file conforms to.`,
    test: (f, p) => {
      const part = f.facts.xmp.pdfa?.part?.value;
      return condition(part?.trim() === String(p.part), { context: part ? `pdfaid:part is "${part}"` : 'pdfaid:part is missing' });
    },
  },
  {
    id: 'pdfa.metadata.conformance',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) =>
      p.part === 4
        ? p.level
          ? `The value of pdfaid:conformance shall be ${p.level.toUpperCase()}.`
          : 'A file that conforms to neither PDF/A-4e nor PDF/A-4f shall not have pdfaid:conformance.'
        : `The value of pdfaid:conformance shall declare level ${p.level.toUpperCase()} or a level that includes it (${acceptedLevels(p).join(' or ')}).`,
    test: (f, p) => {
      const value = f.facts.xmp.pdfa?.conformance?.value.trim() ?? null;
      const ok = p.part === 4 ? (p.level ? value === p.level.toUpperCase() : value === null) : value !== null && acceptedLevels(p).includes(value);
      return condition(ok, { context: value === null ? 'pdfaid:conformance is missing' : `pdfaid:conformance is "${value}"` });
    },
  },
  {
    id: 'pdfa.metadata.revision',
    clauses: { 4: '6.7.3' },
    description: 'The value of pdfaid:rev shall be a four-digit year.',
    test: (f) => {
      const rev = f.facts.xmp.pdfa?.rev?.value.trim();
      return condition(rev !== undefined && /^\d{4}$/.test(rev), { context: rev ? `pdfaid:rev is "${rev}"` : 'pdfaid:rev is missing' });
    },
  },
  {
    id: 'pdfua.metadata.identification',
    clauses: { ua1: '5', ua2: '5' },
    description: 'The PDF/UA part shall be declared in XMP with the PDF/UA identification schema (pdfuaid).',
    test: (f) => condition(f.facts.xmp.pdfua?.part != null, { context: 'XMP has no pdfuaid:part' }),
  },
  {
    id: 'pdfua.metadata.part',
    clauses: { ua1: '5', ua2: '5' },
    description: (p) => `The value of pdfuaid:part shall be ${p.part}.`,
    test: (f, p) => {
      const part = f.facts.xmp.pdfua?.part?.value.trim();
      return condition(part === String(p.part), { context: part ? `pdfuaid:part is "${part}"` : 'pdfuaid:part is missing' });
    },
  },
  {
    id: 'pdfua.metadata.revision',
    clauses: { ua2: '5' },
    description: 'The value of pdfuaid:rev shall be a four-digit year.',
    test: (f) => {
      const rev = f.facts.xmp.pdfua?.rev?.value.trim();
      return condition(rev !== undefined && /^\d{4}$/.test(rev), { context: rev ? `pdfuaid:rev is "${rev}"` : 'pdfuaid:rev is missing' });
    },
  },
  {
    id: 'pdfua.metadata.present',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The document catalog shall contain a Metadata stream with an XMP packet.',
    test: (f) => condition(f.facts.xmp.present && f.facts.xmp.readable, { context: f.facts.xmp.present ? 'the Metadata stream holds no readable XMP' : 'the catalog has no Metadata' }),
  },
  {
    id: 'pdfua.metadata.title',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The XMP metadata shall contain a dc:title entry.',
    test: (f) => condition(!!f.facts.xmp.dcTitle, { context: 'XMP has no dc:title' }),
  },
];

/** Levels that include the requested one: B ⊂ U ⊂ A (PDF/A-1 has no U). */
function acceptedLevels(p: StandardProfile): string[] {
  if (p.level === 'a') return ['A'];
  if (p.level === 'u') return ['U', 'A'];
  return p.part === 1 ? ['B', 'A'] : ['B', 'U', 'A'];
}
