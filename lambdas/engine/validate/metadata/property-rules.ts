/**
 * Rules on the XMP data model of every metadata packet (the catalog's and
 * those of pages, XObjects, fonts…): well-formed serialization,
 * UTF-8, every property predefined or described by an extension schema, every
 * value of its property's type, and the extension schema containers' own
 * structure.
 */
import type { StandardProfile } from '../profiles';
import { condition, type Example, type Rule, type RuleOutcome } from '../rule';
import type { ValidationModel } from '../model';
import { containerProblems, containers, declaredPropertyType } from '../../core/xmp/extension-schemas';
import { mainPacket, packetsOfPart, typeContext, type MetadataPacket } from './packet';
import { isPredefinedNamespace, type Edition } from '../../core/xmp/schemas';
import { typeProblem, undescribedStructure, type TypeContext } from '../../core/xmp/value-types';
import { qname, type XmpProperty } from '../../core/xmp/xmp-model';

const NOTHING_TO_CHECK: RuleOutcome = { checked: 0, failures: [] };

/** PDF/A-1 refers to the XMP Specification of 2004, later parts to that of 2005. */
const editionOf = (p: StandardProfile): Edition => (p.part === 1 ? '2004' : '2005');

/** Runs a check over every metadata stream the part asks about (packetsOfPart) and merges the outcomes. */
function eachPacket(m: ValidationModel, p: StandardProfile, test: (packet: MetadataPacket, main: MetadataPacket | null) => RuleOutcome): RuleOutcome {
  const main = mainPacket(m);
  let checked = 0;
  const failures: Example[] = [];
  for (const packet of packetsOfPart(m, p.part)) {
    const r = test(packet, main);
    checked += r.checked;
    failures.push(...r.failures);
  }
  return checked ? { checked, failures } : NOTHING_TO_CHECK;
}

const declaredType = (current: MetadataPacket, main: MetadataPacket | null, p: XmpProperty, edition: Edition): string | null =>
  declaredPropertyType(current.definitions, main?.definitions ?? null, p, edition);

/** Value type names defined for an extension schema namespace: in the packet, and for PDF/A-2 and later in the catalog packet. */
function schemaTypes(current: MetadataPacket, main: MetadataPacket | null, edition: Edition): (ns: string) => ReadonlySet<string> {
  return (ns) => {
    const own = current.definitions.typesBySchema.get(ns) ?? new Set<string>();
    if (edition === '2004' || !main || main === current) return own;
    return new Set([...own, ...(main.definitions.typesBySchema.get(ns) ?? [])]);
  };
}

/** Structure types: the packet's own, and for PDF/A-2 and later the catalog packet's. */
function contextFor(current: MetadataPacket, main: MetadataPacket | null, edition: Edition): TypeContext {
  const ctx = typeContext(current, edition);
  if (edition === '2004' || !main || main === current || main.definitions.types.size === 0) return ctx;
  return { edition, custom: new Map([...main.definitions.types, ...current.definitions.types]) };
}

export const PROPERTY_RULES: readonly Rule[] = [
  {
    id: 'pdfa.metadata.serialization',
    clauses: { 1: '6.7.9', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The XMP packet shall be well-formed XML and follow the RDF serialization the XMP Specification defines.',
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => ({
        checked: 1,
        failures: packet.packet.problems.length ? [{ objectNumber: packet.objectNumber, context: packet.packet.problems.slice(0, 3).join('; ') }] : [],
      })),
  },
  {
    id: 'pdfa.metadata.utf8',
    clauses: { 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The XMP packet shall be encoded as UTF-8.',
    test: (m, p) => eachPacket(m, p, (packet, catalogPacket) => condition(packet.encoding === 'UTF-8', { objectNumber: packet.objectNumber, context: `the packet is encoded as ${packet.encoding}` })),
  },
  {
    id: 'pdfa.metadata.defined-properties',
    clauses: { 1: '6.7.2', 2: '6.6.2.3.1', 3: '6.6.2.3.1' },
    description: (p) =>
      `Every XMP property shall belong to a schema predefined by the XMP Specification (${editionOf(p)}) or ISO 19005, or be described by a PDF/A extension schema in the packet.`,
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => {
        const edition = editionOf(p);
        const failures: Example[] = [];
        for (const prop of packet.packet.properties) {
          // A schema XMP does not know at all needs an extension schema: pdfa.metadata.extension-schema-missing.
          if (!isPredefinedNamespace('2005', prop.ns)) continue;
          if (declaredType(packet, catalogPacket, prop, edition) === null) failures.push({ objectNumber: packet.objectNumber, context: `${qname(prop)} (${prop.ns}) is neither predefined nor described by an extension schema` });
        }
        return { checked: packet.packet.properties.length, failures };
      }),
  },
  {
    id: 'pdfa.metadata.extension-schema-missing',
    clauses: { 1: '6.7.8', 2: '6.6.2.3.2', 3: '6.6.2.3.2' },
    description: 'A property of a schema the XMP Specification does not predefine shall be described by a PDF/A extension schema in the packet.',
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => {
        const edition = editionOf(p);
        const custom = packet.packet.properties.filter((x) => !isPredefinedNamespace('2005', x.ns));
        const failures: Example[] = custom
          .filter((x) => declaredType(packet, catalogPacket, x, edition) === null)
          .map((x) => ({ objectNumber: packet.objectNumber, context: `${qname(x)} (${x.ns}) has no extension schema description` }));
        return { checked: custom.length, failures };
      }),
  },
  {
    id: 'pdfa.metadata.value-types',
    clauses: { 1: '6.7.2', 2: '6.6.2.3.1', 3: '6.6.2.3.1' },
    description: 'Every XMP property shall have a value of the type its schema defines (for example a Date in ISO 8601 form, an Integer of digits, a Bag as rdf:Bag).',
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => {
        const edition = editionOf(p);
        const ctx = contextFor(packet, catalogPacket, edition);
        const failures: Example[] = [];
        for (const prop of packet.packet.properties) {
          const type = declaredType(packet, catalogPacket, prop, edition);
          if (type === null || type === 'pdfaid') continue;
          const problem = typeProblem(prop.node, type, ctx);
          if (problem) failures.push({ objectNumber: packet.objectNumber, context: `${qname(prop)} (${type}) ${problem}` });
        }
        return { checked: packet.packet.properties.length, failures };
      }),
  },
  {
    id: 'pdfa.metadata.extension-schema-fields',
    clauses: { 1: '6.7.8', 2: '6.6.2.3.2', 3: '6.6.2.3.2' },
    description: 'Extension schemas shall be described with the PDF/A extension schema container schema, using only the fields it defines.',
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => {
        if (!containers(packet.packet).length) return NOTHING_TO_CHECK;
        const problems = containerProblems(packet.packet, schemaTypes(packet, catalogPacket, editionOf(p))).filter((x) => x.kind === 'undefined-field');
        return { checked: 1, failures: problems.map((x) => ({ objectNumber: packet.objectNumber, context: x.context })) };
      }),
  },
  {
    id: 'pdfa.metadata.extension-schema-structure',
    clauses: { 1: '6.7.8', 2: '6.6.2.3.3', 3: '6.6.2.3.3' },
    description:
      'Each extension schema description shall have the fields the PDF/A container schemas require (pdfaSchema, pdfaProperty, pdfaType, pdfaField), with their namespace prefixes, value types and defined value type names.',
    test: (m, p) =>
      eachPacket(m, p, (packet, catalogPacket) => {
        const edition = editionOf(p);
        const failures: Example[] = containers(packet.packet).length
          ? containerProblems(packet.packet, schemaTypes(packet, catalogPacket, edition))
              .filter((x) => x.kind === 'structure')
              .map((x) => ({ objectNumber: packet.objectNumber, context: x.context }))
          : [];
        // A value type described without fields is Text, so a structure of that type is one the extension schema does not describe.
        const ctx = contextFor(packet, catalogPacket, edition);
        for (const prop of packet.packet.properties) {
          const type = declaredType(packet, catalogPacket, prop, edition);
          const undescribed = type === null || type === 'pdfaid' ? null : undescribedStructure(prop.node, type, ctx);
          if (undescribed) failures.push({ objectNumber: packet.objectNumber, context: `${qname(prop)} is a structure of value type "${undescribed}", whose description lists no pdfaType:field` });
        }
        return failures.length || containers(packet.packet).length ? { checked: 1, failures } : NOTHING_TO_CHECK;
      }),
  },
];
