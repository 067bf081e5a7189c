/**
 * Metadata: the XMP packet, identification schemas, consistency with the Info dictionary, extension schemas.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 * The packet is read once into the XMP data model (packet.ts); rules on its
 * properties and extension schemas are in property-rules.ts, on the Info
 * dictionary in info-rules.ts.
 */
import { getStream, streamFilters } from '../../core/pdf-objects';
import type { StandardProfile } from '../profiles';
import { condition, type Example, type Rule } from '../rule';
import type { ValidationModel } from '../model';
import { INFO_RULES } from './info-rules';
import { mainPacket, packetsOfPart, type MetadataPacket } from './packet';
import { PROPERTY_RULES } from './property-rules';
import { NS } from '../../core/xmp/schemas';
import type { XmpProperty } from '../../core/xmp/xmp-model';

/** A rule about an object the file does not have (its absence is another rule's failure). */
const NOTHING_TO_CHECK = { checked: 0, failures: [] };

/** Top-level properties of an identification schema, first occurrence of each name. */
function idProperties(main: MetadataPacket | null, ns: string): Map<string, XmpProperty> {
  const out = new Map<string, XmpProperty>();
  for (const p of main?.packet.properties ?? []) if (p.ns === ns && !out.has(p.name)) out.set(p.name, p);
  return out;
}

const valueOf = (p: XmpProperty | undefined): string | null => (p && p.node.kind === 'simple' ? p.node.value.trim() : null);
const pdfaid = (m: ValidationModel): Map<string, XmpProperty> => idProperties(mainPacket(m), NS.pdfaid);
const pdfuaid = (m: ValidationModel): Map<string, XmpProperty> => idProperties(mainPacket(m), NS.pdfuaid);

/** Properties of the PDF/A identification schema each part defines. */
const PDFAID_PROPERTIES: Record<number, string[]> = { 1: ['part', 'conformance', 'amd'], 2: ['part', 'conformance', 'amd', 'corr', 'rev'], 3: ['part', 'conformance', 'amd', 'corr', 'rev'], 4: ['part', 'conformance', 'amd', 'corr', 'rev'] };

function metadataPresent(m: ValidationModel): { ok: boolean; context: string } {
  const stream = getStream(m.catalog, 'Metadata');
  if (!stream) return { ok: false, context: 'the catalog has no Metadata stream' };
  const main = mainPacket(m);
  if (!main) return { ok: false, context: 'the Metadata stream could not be read' };
  if (main.type !== 'Metadata' || main.subtype !== 'XML') return { ok: false, context: `the Metadata stream has Type ${main.type ?? '(none)'} and Subtype ${main.subtype ?? '(none)'} instead of Metadata and XML` };
  return { ok: true, context: '' };
}

const IDENTIFICATION_RULES: readonly Rule[] = [
  {
    id: 'pdfa.metadata.present',
    clauses: { 1: '6.7.2', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The document catalog shall contain a Metadata stream (Type Metadata, Subtype XML) with an XMP packet.',
    test: (m) => {
      const r = metadataPresent(m);
      return condition(r.ok, { context: r.context });
    },
  },
  {
    id: 'pdfa.metadata.unfiltered',
    clauses: { 1: '6.7.2' },
    description: 'The catalog Metadata stream shall not contain the Filter key (it shall be uncompressed).',
    test: (m) => {
      const stream = getStream(m.catalog, 'Metadata');
      if (!stream) return NOTHING_TO_CHECK;
      const filters = streamFilters(stream);
      return condition(filters.length === 0, { objectNumber: m.objectNumbers.of(stream), context: `Metadata stream is encoded with ${filters.join(', ')}` });
    },
  },
  {
    id: 'pdfa.metadata.packet-header',
    clauses: { 1: '6.7.5', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The XMP packet header shall not use the bytes or encoding attributes.',
    test: (m, p) => {
      const failures: Example[] = [];
      let checked = 0;
      for (const packet of packetsOfPart(m, p.part)) {
        const header = packet.packet.header;
        if (!header) continue;
        checked++;
        const used = ['bytes', 'encoding'].filter((a) => new RegExp(`\\s${a}\\s*=`).test(header));
        if (used.length) failures.push({ objectNumber: packet.objectNumber, context: `packet header has ${used.join(' and ')}` });
      }
      return { checked, failures };
    },
  },
  {
    id: 'pdfa.metadata.identification',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: 'The PDF/A part and conformance level shall be declared in XMP with the PDF/A identification schema (pdfaid).',
    test: (m) => condition(pdfaid(m).size > 0, { context: 'XMP has no property of the PDF/A identification schema' }),
  },
  {
    id: 'pdfa.metadata.part',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) => `The value of pdfaid:part shall be ${p.part}, the part the file conforms to.`,
    test: (m, p) => {
      const part = valueOf(pdfaid(m).get('part'));
      return condition(part === String(p.part), { context: part !== null ? `pdfaid:part is "${part}"` : 'pdfaid:part is missing' });
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
    test: (m, p) => {
      const value = valueOf(pdfaid(m).get('conformance'));
      const ok = p.part === 4 ? (p.level ? value === p.level.toUpperCase() : value === null) : value !== null && acceptedLevels(p).includes(value);
      return condition(ok, { context: value === null ? 'pdfaid:conformance is missing' : `pdfaid:conformance is "${value}"` });
    },
  },
  {
    id: 'pdfa.metadata.revision',
    clauses: { 4: '6.7.3' },
    description: 'The value of pdfaid:rev shall be a four-digit year.',
    test: (m) => {
      const rev = valueOf(pdfaid(m).get('rev'));
      return condition(rev !== null && /^\d{4}$/.test(rev), { context: rev !== null ? `pdfaid:rev is "${rev}"` : 'pdfaid:rev is missing' });
    },
  },
  {
    id: 'pdfa.metadata.identification-prefix',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: 'Properties of the PDF/A identification schema shall use the namespace prefix pdfaid.',
    test: (m) => {
      const props = [...pdfaid(m).values()];
      const failures: Example[] = props.filter((x) => x.prefix !== 'pdfaid').map((x) => ({ context: `${x.prefix}:${x.name} uses prefix "${x.prefix}"` }));
      return { checked: props.length, failures };
    },
  },
  {
    id: 'pdfa.metadata.identification-schema',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) => `The PDF/A identification schema has only the properties ${PDFAID_PROPERTIES[p.part]!.join(', ')}; pdfaid:part shall be an Integer.`,
    test: (m, p) => {
      const props = [...pdfaid(m).values()];
      const allowed = PDFAID_PROPERTIES[p.part] ?? [];
      const failures: Example[] = [];
      for (const x of props) {
        if (!allowed.includes(x.name)) failures.push({ context: `pdfaid:${x.name} is not a property of the PDF/A-${p.part} identification schema` });
        else if (x.node.kind !== 'simple') failures.push({ context: `pdfaid:${x.name} is not a simple value` });
      }
      return { checked: props.length, failures };
    },
  },
  {
    id: 'pdfua.metadata.identification',
    clauses: { ua1: '5', ua2: '5' },
    description: 'The PDF/UA part shall be declared in XMP with the PDF/UA identification schema (pdfuaid).',
    test: (m) => condition(pdfuaid(m).has('part'), { context: 'XMP has no pdfuaid:part' }),
  },
  {
    id: 'pdfua.metadata.part',
    clauses: { ua1: '5', ua2: '5' },
    description: (p) => `The value of pdfuaid:part shall be ${p.part}.`,
    test: (m, p) => {
      const part = valueOf(pdfuaid(m).get('part'));
      return condition(part === String(p.part), { context: part !== null ? `pdfuaid:part is "${part}"` : 'pdfuaid:part is missing' });
    },
  },
  {
    id: 'pdfua.metadata.revision',
    clauses: { ua2: '5' },
    description: 'The value of pdfuaid:rev shall be a four-digit year.',
    test: (m) => {
      const rev = valueOf(pdfuaid(m).get('rev'));
      return condition(rev !== null && /^\d{4}$/.test(rev), { context: rev !== null ? `pdfuaid:rev is "${rev}"` : 'pdfuaid:rev is missing' });
    },
  },
  {
    id: 'pdfua.metadata.identification-prefix',
    clauses: { ua1: '5', ua2: '5' },
    description: 'Properties of the PDF/UA identification schema shall use the namespace prefix pdfuaid.',
    test: (m) => {
      const props = [...pdfuaid(m).values()];
      const failures: Example[] = props.filter((x) => x.prefix !== 'pdfuaid').map((x) => ({ context: `${x.prefix}:${x.name} uses prefix "${x.prefix}"` }));
      return { checked: props.length, failures };
    },
  },
  {
    id: 'pdfua.metadata.present',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The document catalog shall contain a Metadata stream (Type Metadata, Subtype XML) with an XMP packet.',
    test: (m) => {
      const r = metadataPresent(m);
      return condition(r.ok, { context: r.context });
    },
  },
  {
    id: 'pdfua.metadata.title',
    clauses: { ua1: '7.1', ua2: '8.11.1' },
    description: 'The XMP metadata shall contain a dc:title entry.',
    test: (m) => condition(idProperties(mainPacket(m), NS.dc).has('title'), { context: 'XMP has no dc:title' }),
  },
];

export const METADATA_RULES: readonly Rule[] = [...IDENTIFICATION_RULES, ...PROPERTY_RULES, ...INFO_RULES];

/** Levels that include the requested one: B ⊂ U ⊂ A (PDF/A-1 has no U). */
function acceptedLevels(p: StandardProfile): string[] {
  if (p.level === 'a') return ['A'];
  if (p.level === 'u') return ['U', 'A'];
  return p.part === 1 ? ['B', 'A'] : ['B', 'U', 'A'];
}
