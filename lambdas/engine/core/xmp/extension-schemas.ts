/**
 * PDF/A extension schemas (ISO 19005-1, 6.7.8; ISO 19005-2, 6.6.2.3.2 and
 * 6.6.2.3.3): the pdfaExtension:schemas container describes every schema the
 * packet uses beyond the predefined ones, with its properties' value types and
 * any structure types those need. Read here into definitions other rules use,
 * and checked against the container schemas' own structure: each entry has the
 * required fields, in the container namespaces with their required prefixes,
 * of the required types, and no fields the containers do not define.
 */
import { NS, predefinedType, type Edition, type StructType } from './schemas';
import { isKnownType, type TypeContext } from './value-types';
import type { XmpNode, XmpPacket, XmpProperty } from './xmp-model';

export interface ExtensionDefinitions {
  /** Namespace URI → property name → value type. */
  properties: Map<string, Map<string, string>>;
  /** Structure types (pdfaType:type) by name. */
  types: Map<string, StructType>;
  /** Schema namespace URI → names of the value types its extension schema descriptions define. */
  typesBySchema: Map<string, Set<string>>;
}

export interface ContainerProblem {
  /** `structure`: a required field missing or of the wrong type/prefix; `undefined-field`: a field the container does not define. */
  kind: 'structure' | 'undefined-field';
  context: string;
}

interface Level {
  label: string;
  ns: string;
  prefix: string;
  /** Field → required (true) or optional; and its expected shape. */
  fields: Record<string, { required: boolean; shape: 'text' | 'uri' | 'seq' }>;
}

const SCHEMA: Level = {
  label: 'PDF/A Schema',
  ns: NS.pdfaSchema,
  prefix: 'pdfaSchema',
  fields: { schema: { required: true, shape: 'text' }, namespaceURI: { required: true, shape: 'uri' }, prefix: { required: true, shape: 'text' }, property: { required: false, shape: 'seq' }, valueType: { required: false, shape: 'seq' } },
};
const PROPERTY: Level = {
  label: 'PDF/A Property',
  ns: NS.pdfaProperty,
  prefix: 'pdfaProperty',
  fields: { name: { required: true, shape: 'text' }, valueType: { required: true, shape: 'text' }, category: { required: true, shape: 'text' }, description: { required: true, shape: 'text' } },
};
// veraPDF's 6.6.2.3.3 rules accept a value type without pdfaType:field (fieldPrefix may be null) and
// then check values of that type as Text; a structure given such a type is reported by
// undescribedStructures instead (that is why 6-6-2-3-3-t03-fail-b, a field-less type used for a
// structure, fails).
const VALUE_TYPE: Level = {
  label: 'PDF/A ValueType',
  ns: NS.pdfaType,
  prefix: 'pdfaType',
  fields: { type: { required: true, shape: 'text' }, namespaceURI: { required: true, shape: 'uri' }, prefix: { required: true, shape: 'text' }, description: { required: true, shape: 'text' }, field: { required: false, shape: 'seq' } },
};
const FIELD: Level = {
  label: 'PDF/A Field',
  ns: NS.pdfaField,
  prefix: 'pdfaField',
  fields: { name: { required: true, shape: 'text' }, valueType: { required: true, shape: 'text' }, description: { required: true, shape: 'text' } },
};

/** The pdfaExtension:schemas properties of a packet. */
export function containers(packet: XmpPacket): XmpProperty[] {
  return packet.properties.filter((p) => p.ns === NS.pdfaExtension && p.name === 'schemas');
}

const structItems = (node: XmpNode | undefined): XmpProperty[][] =>
  node && node.kind === 'array' ? node.items.flatMap((i) => (i.kind === 'struct' ? [i.fields] : [])) : [];

const field = (fields: XmpProperty[], level: Level, name: string): XmpProperty | undefined => fields.find((f) => f.ns === level.ns && f.name === name);
const text = (p: XmpProperty | undefined): string | null => (p && p.node.kind === 'simple' ? p.node.value.trim() : null);

/** Definitions the packet's extension schemas make (lenient: whatever can be read is used). */
export function extensionDefinitions(packet: XmpPacket): ExtensionDefinitions {
  const properties = new Map<string, Map<string, string>>();
  const types = new Map<string, StructType>();
  const typesBySchema = new Map<string, Set<string>>();
  for (const c of containers(packet)) {
    for (const schema of structItems(c.node)) {
      const ns = text(field(schema, SCHEMA, 'namespaceURI'));
      const local = typesBySchema.get(ns ?? '') ?? new Set<string>();
      typesBySchema.set(ns ?? '', local);
      if (ns) {
        const map = properties.get(ns) ?? new Map<string, string>();
        for (const prop of structItems(field(schema, SCHEMA, 'property')?.node)) {
          const name = text(field(prop, PROPERTY, 'name'));
          const type = text(field(prop, PROPERTY, 'valueType'));
          if (name) map.set(name, type ?? 'Text');
        }
        properties.set(ns, map);
      }
      for (const vt of structItems(field(schema, SCHEMA, 'valueType')?.node)) {
        const name = text(field(vt, VALUE_TYPE, 'type'));
        const tns = text(field(vt, VALUE_TYPE, 'namespaceURI'));
        if (name) local.add(name);
        if (!name) continue;
        const fields: Record<string, string> = {};
        for (const f of structItems(field(vt, VALUE_TYPE, 'field')?.node)) {
          const fname = text(field(f, FIELD, 'name'));
          if (fname) fields[fname] = text(field(f, FIELD, 'valueType')) ?? 'Text';
        }
        // A type with no fields is Text whatever its namespace (veraPDF's registerTypeNode); a structure needs one.
        if (Object.keys(fields).length) {
          if (tns) types.set(name, { ns: tns, fields });
        } else types.set(name, { ns: tns ?? '', fields });
      }
    }
  }
  return { properties, types, typesBySchema };
}

/** Ways the extension schema containers break the structure the PDF/A container schemas define. */
/**
 * A property's or field's value type shall be an XMP type or one the same extension schema
 * defines (ISO 19005-2, 6.6.2.3.3): `typesOf(ns)` gives the names defined for schema `ns`.
 */
export function containerProblems(packet: XmpPacket, typesOf: (schemaNs: string) => ReadonlySet<string>): ContainerProblem[] {
  const out: ContainerProblem[] = [];
  for (const c of containers(packet)) {
    if (c.prefix !== 'pdfaExtension') out.push({ kind: 'structure', context: `the extension schema container uses prefix "${c.prefix}" instead of pdfaExtension` });
    if (c.node.kind !== 'array' || c.node.form !== 'Bag') {
      out.push({ kind: 'structure', context: 'pdfaExtension:schemas is not an rdf:Bag' });
      continue;
    }
    for (const item of c.node.items) {
      if (item.kind !== 'struct') {
        out.push({ kind: 'structure', context: 'a pdfaExtension:schemas entry is not a structure' });
        continue;
      }
      const schemaNs = text(field(item.fields, SCHEMA, 'namespaceURI')) ?? '';
      const types = typesOf(schemaNs);
      const ctx: TypeContext = { edition: '2005', custom: new Map([...types].map((t) => [t, { ns: '', fields: {} }])) };
      checkLevel(item.fields, SCHEMA, ctx, out, (name, node) => {
        if (name === 'property') for (const p of nested(node, PROPERTY, out)) checkLevel(p, PROPERTY, ctx, out);
        if (name === 'valueType')
          for (const v of nested(node, VALUE_TYPE, out))
            checkLevel(v, VALUE_TYPE, ctx, out, (n2, node2) => {
              if (n2 === 'field') for (const f of nested(node2, FIELD, out)) checkLevel(f, FIELD, ctx, out);
            });
      });
    }
  }
  return out;
}

function nested(node: XmpNode, level: Level, out: ContainerProblem[]): XmpProperty[][] {
  if (node.kind !== 'array') return [];
  const items: XmpProperty[][] = [];
  for (const i of node.items) {
    if (i.kind === 'struct') items.push(i.fields);
    else out.push({ kind: 'structure', context: `a ${level.label} entry is not a structure` });
  }
  return items;
}

function checkLevel(fields: XmpProperty[], level: Level, ctx: TypeContext, out: ContainerProblem[], descend?: (name: string, node: XmpNode) => void): void {
  const who = (): string => {
    const id = text(field(fields, level, 'name')) ?? text(field(fields, level, 'type')) ?? text(field(fields, level, 'namespaceURI')) ?? text(field(fields, level, 'schema'));
    return id ? `${level.label} "${id}"` : level.label;
  };
  for (const f of fields) {
    if (f.ns !== level.ns || !Object.hasOwn(level.fields, f.name)) {
      out.push({ kind: 'undefined-field', context: `${who()} has field ${f.prefix}:${f.name}, which the ${level.label} value type does not define` });
    }
  }
  for (const [name, spec] of Object.entries(level.fields)) {
    const f = field(fields, level, name);
    if (!f) {
      if (spec.required) out.push({ kind: 'structure', context: `${who()} has no ${level.prefix}:${name}` });
      continue;
    }
    if (f.prefix !== level.prefix) out.push({ kind: 'structure', context: `${who()} writes ${name} with prefix "${f.prefix}" instead of ${level.prefix}` });
    if (spec.shape === 'seq') {
      // veraPDF asks only that the array be ordered, and the XMP toolkit counts an rdf:Alt as ordered too.
      if (f.node.kind !== 'array' || f.node.form === 'Bag') out.push({ kind: 'structure', context: `${who()}: ${level.prefix}:${name} is not an rdf:Seq` });
      else descend?.(name, f.node);
      continue;
    }
    if (f.node.kind !== 'simple') {
      out.push({ kind: 'structure', context: `${who()}: ${level.prefix}:${name} is not a simple value` });
      continue;
    }
    if (name === 'category' && !['external', 'internal'].includes(f.node.value.trim())) out.push({ kind: 'structure', context: `${who()}: category "${f.node.value}" is neither external nor internal` });
    if (name === 'valueType' && !isKnownType(f.node.value, ctx)) out.push({ kind: 'structure', context: `${who()}: value type "${f.node.value}" is not defined` });
  }
}

type PropertyDefinitions = { properties: ReadonlyMap<string, ReadonlyMap<string, string>> };

/**
 * The value type a property must have given the extension schemas of its own
 * packet and of the catalog's, or null when neither XMP nor an extension schema
 * defines it; 'pdfaid' for the identification schema. Also what autofix's
 * pdfa.prepare removes properties by (autofix/standards/xmp-allowed.ts) and
 * validate's property rules check them by.
 */
export function declaredPropertyType(own: PropertyDefinitions, main: PropertyDefinitions | null, p: XmpProperty, edition: Edition): string | null {
  // The identification schema has its own rule (pdfa.metadata.identification-schema) and clause.
  if (p.ns === NS.pdfaid) return 'pdfaid';
  // An extension schema's description wins over the predefined one, as in veraPDF (AXLXMPProperty
  // looks in the packet's, then the catalog packet's, extension schemas before XMP's tables): producers
  // describe pdf:Trapped as Text and write "Unknown", which is not the Boolean XMP would expect.
  const ownType = own.properties.get(p.ns)?.get(p.name);
  if (ownType) return ownType;
  // PDF/A-2 and later let the catalog's packet describe properties other packets use; PDF/A-1 does not.
  const mainType = edition === '2005' ? main?.properties.get(p.ns)?.get(p.name) : undefined;
  return mainType ?? predefinedType(edition, p.ns, p.name) ?? null;
}
