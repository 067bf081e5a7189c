/**
 * Repairs the PDF/A extension schema container (pdfaExtension:schemas) of the
 * catalog's XMP packet for pdfa.prepare, so that it has the structure ISO
 * 19005-1 6.7.8 and -2 6.6.2.3.3 require (checked by the validator's
 * containerProblems): every schema, property, value type and field
 * description with its required fields, in the container namespaces, of the
 * right shape, and nothing else.
 *
 * What is derivable is filled in, from the description itself or from the
 * properties of the packet that use it:
 * - a schema's namespace URI from the properties written with its prefix (or
 *   named in its property list), its prefix from the properties in its
 *   namespace; a value type's namespace and prefix from the fields of the
 *   values of that type, its field list from those values;
 * - a missing or undefined value type from the value the property has (a
 *   simple value is Text, an rdf:Bag of them "bag Text", a language
 *   alternative "Lang Alt"…), or a value type written in another case;
 * - a missing description from the name it describes; a missing or invalid
 *   category "external" (the value comes from outside the application — the
 *   description changes nothing about the value);
 * - a field in the wrong container namespace is moved to the right one, an
 *   array of the wrong kind gets the right kind, several containers become one.
 *
 * What cannot be derived (a property description without a name, a schema
 * whose namespace no property shows) is removed: a description that still
 * breaks the structure afterwards is removed whole. The properties it alone
 * defined are then undefined, and pdfa.prepare's removal of properties PDF/A
 * does not allow (xmp-allowed.ts) takes them out.
 */
import { containerProblems, extensionDefinitions } from '../../core/xmp/extension-schemas';
import { isPredefinedNamespace, NS } from '../../core/xmp/schemas';
import { isKnownType, parseType, undescribedStructure, type TypeContext } from '../../core/xmp/value-types';
import type { XmpNode, XmpPacket, XmpProperty } from '../../core/xmp/xmp-model';

interface Level {
  ns: string;
  prefix: string;
  label: string;
  /** Field → shape. */
  fields: Record<string, 'text' | 'seq'>;
}

const SCHEMA: Level = { ns: NS.pdfaSchema, prefix: 'pdfaSchema', label: 'schema', fields: { schema: 'text', namespaceURI: 'text', prefix: 'text', property: 'seq', valueType: 'seq' } };
const PROPERTY: Level = { ns: NS.pdfaProperty, prefix: 'pdfaProperty', label: 'property', fields: { name: 'text', valueType: 'text', category: 'text', description: 'text' } };
const VALUE_TYPE: Level = { ns: NS.pdfaType, prefix: 'pdfaType', label: 'value type', fields: { type: 'text', namespaceURI: 'text', prefix: 'text', description: 'text', field: 'seq' } };
const FIELD: Level = { ns: NS.pdfaField, prefix: 'pdfaField', label: 'field', fields: { name: 'text', valueType: 'text', description: 'text' } };
const CONTAINER_NS = new Set<string>([NS.pdfaExtension, NS.pdfaSchema, NS.pdfaProperty, NS.pdfaType, NS.pdfaField]);

export interface ExtensionRepair {
  /** The repaired container (all containers merged), or null when nothing of it could be kept. */
  container: XmpProperty | null;
  /** What was changed, in words. */
  changes: string[];
}

/** The repair the packet's containers need, or null when they have none or need nothing. */
export function repairExtensionSchemas(packet: XmpPacket): ExtensionRepair | null {
  const containers = packet.properties.filter((p) => p.ns === NS.pdfaExtension && p.name === 'schemas');
  if (containers.length === 0) return null;
  const typesOf = (c: XmpProperty) => (ns: string) => extensionDefinitions({ ...packet, properties: [c] }).typesBySchema.get(ns) ?? new Set<string>();
  if (containers.length === 1 && containerProblems({ ...packet, properties: containers }, typesOf(containers[0]!)).length === 0 && !structureOfFieldlessType(packet)) return null;

  const changes: string[] = [];
  if (containers.length > 1) changes.push(`${containers.length} extension schema containers merged into one`);
  const items = containers.flatMap((c) => (c.node.kind === 'array' ? c.node.items : [c.node]));
  const users = packet.properties.filter((p) => !CONTAINER_NS.has(p.ns) && p.ns !== NS.pdfaid && !isPredefinedNamespace('2005', p.ns));
  const schemas: XmpNode[] = [];
  for (const item of items) {
    if (item.kind !== 'struct') {
      changes.push('an extension schema entry that is not a structure removed');
      continue;
    }
    const repaired = repairSchema(item.fields, users, changes);
    if (repaired) schemas.push({ kind: 'struct', fields: repaired });
  }
  // Whatever still breaks the structure goes, one schema description at a time.
  const container = (list: XmpNode[]): XmpProperty => ({ ns: NS.pdfaExtension, prefix: 'pdfaExtension', name: 'schemas', node: { kind: 'array', form: 'Bag', items: list } });
  const kept = schemas.filter((s) => {
    const alone = container([s]);
    const problems = containerProblems({ ...packet, properties: [alone] }, typesOf(alone));
    if (problems.length) changes.push(`extension schema ${describe(s)} removed (${problems[0]!.context})`);
    return problems.length === 0;
  });
  if (kept.length < items.length && kept.length === 0) changes.push('the extension schema container removed (no schema description was left)');
  return { container: kept.length ? container(kept) : null, changes: changes.length ? changes : ['extension schema container rewritten in its proper form'] };
}

/**
 * True when a property is a structure of a value type described without fields: the container is
 * well-formed, yet the description does not describe that structure (pdfa.metadata.extension-schema-structure),
 * and the field list can be told from the values.
 */
function structureOfFieldlessType(packet: XmpPacket): boolean {
  const defs = extensionDefinitions(packet);
  const ctx: TypeContext = { edition: '2005', custom: defs.types };
  return packet.properties.some((p) => {
    const type = defs.properties.get(p.ns)?.get(p.name);
    return type !== undefined && undescribedStructure(p.node, type, ctx) !== null;
  });
}

const text = (fields: XmpProperty[], level: Level, field: string): string | null => {
  const f = fields.find((x) => x.ns === level.ns && x.name === field);
  return f && f.node.kind === 'simple' ? f.node.value.trim() || null : null;
};
const simple = (level: Level, field: string, value: string): XmpProperty => ({ ns: level.ns, prefix: level.prefix, name: field, node: { kind: 'simple', value, uri: false, qualifiers: [] } });
const describe = (s: XmpNode): string => (s.kind === 'struct' ? `"${text(s.fields, SCHEMA, 'namespaceURI') ?? text(s.fields, SCHEMA, 'schema') ?? '?'}"` : '');

/**
 * The level's own fields only, in its namespace with its prefix: a defined
 * field written in another namespace moves when the level lacks it, an
 * undefined one goes.
 */
function ownFields(fields: XmpProperty[], level: Level, who: string, changes: string[]): XmpProperty[] {
  const out: XmpProperty[] = [];
  for (const f of fields) {
    const defined = Object.hasOwn(level.fields, f.name);
    if (defined && f.ns === level.ns) out.push({ ...f, prefix: level.prefix });
    else if (defined && !fields.some((g) => g.ns === level.ns && g.name === f.name) && !out.some((g) => g.name === f.name)) {
      out.push({ ...f, ns: level.ns, prefix: level.prefix });
      changes.push(`${who}: ${f.prefix}:${f.name} moved to ${level.prefix}:${f.name}`);
    } else changes.push(`${who}: field ${f.prefix}:${f.name} removed (the ${level.label} description does not define it)`);
  }
  return out;
}

/** A Seq's structure items (other array kinds become a Seq; other items go). */
function seqItems(fields: XmpProperty[], level: Level, field: string, who: string, changes: string[]): XmpProperty[][] | null {
  const f = fields.find((x) => x.ns === level.ns && x.name === field);
  if (!f) return null;
  const node = f.node;
  const items = node.kind === 'array' ? node.items : node.kind === 'struct' ? [node] : [];
  if (node.kind !== 'array' || node.form !== 'Seq') changes.push(`${who}: ${level.prefix}:${field} made an rdf:Seq`);
  const structs = items.filter((i): i is Extract<XmpNode, { kind: 'struct' }> => i.kind === 'struct');
  if (structs.length < items.length) changes.push(`${who}: ${items.length - structs.length} ${level.prefix}:${field} entries that are not structures removed`);
  return structs.map((s) => s.fields);
}

const seqOf = (level: Level, field: string, items: XmpProperty[][]): XmpProperty => ({ ns: level.ns, prefix: level.prefix, name: field, node: { kind: 'array', form: 'Seq', items: items.map((fields) => ({ kind: 'struct', fields })) } });

function setField(fields: XmpProperty[], p: XmpProperty): XmpProperty[] {
  return [...fields.filter((f) => !(f.ns === p.ns && f.name === p.name)), p];
}

function repairSchema(raw: XmpProperty[], users: XmpProperty[], changes: string[]): XmpProperty[] | null {
  let fields = ownFields(raw, SCHEMA, `extension schema "${text(raw, SCHEMA, 'namespaceURI') ?? text(raw, SCHEMA, 'schema') ?? '?'}"`, changes);
  const listed = new Set((seqItems(fields, SCHEMA, 'property', '', []) ?? []).map((p) => text(p, PROPERTY, 'name')).filter((x): x is string => !!x));
  let ns = text(fields, SCHEMA, 'namespaceURI');
  let prefix = text(fields, SCHEMA, 'prefix');
  const who = () => `extension schema "${ns ?? text(fields, SCHEMA, 'schema') ?? prefix ?? '?'}"`;
  if (!ns) {
    // The namespace of the packet's properties written with the schema's prefix, or named in its property list.
    const candidates = new Set(users.filter((u) => (prefix && u.prefix === prefix) || (!prefix && listed.has(u.name))).map((u) => u.ns));
    if (candidates.size !== 1) {
      changes.push(`${who()} removed (it names no namespace URI, and no property of the packet shows which)`);
      return null;
    }
    ns = [...candidates][0]!;
    fields = setField(fields, simple(SCHEMA, 'namespaceURI', ns));
    changes.push(`${who()}: pdfaSchema:namespaceURI added from the properties that use it`);
  }
  const used = users.filter((u) => u.ns === ns);
  if (!prefix) {
    const candidates = new Set(used.map((u) => u.prefix));
    if (candidates.size !== 1) {
      changes.push(`${who()} removed (it names no prefix, and no property of the packet shows which)`);
      return null;
    }
    prefix = [...candidates][0]!;
    fields = setField(fields, simple(SCHEMA, 'prefix', prefix));
    changes.push(`${who()}: pdfaSchema:prefix added from the properties that use it`);
  }
  if (!text(fields, SCHEMA, 'schema')) {
    fields = setField(fields, simple(SCHEMA, 'schema', `Properties in the namespace ${ns}`));
    changes.push(`${who()}: pdfaSchema:schema (its description) added`);
  }

  // Value types first: the properties' types are judged against the names they define.
  const typeItems = seqItems(fields, SCHEMA, 'valueType', who(), changes);
  const propertyItems = seqItems(fields, SCHEMA, 'property', who(), changes) ?? [];
  const declared = new Map<string, string>(); // property name → value type as written
  for (const p of propertyItems) {
    const n = text(p, PROPERTY, 'name');
    const t = text(p, PROPERTY, 'valueType');
    if (n && t) declared.set(n, t);
  }
  const types: XmpProperty[][] = [];
  for (const t of typeItems ?? []) {
    const repaired = repairValueType(t, used, declared, `${who()} value type`, changes);
    if (repaired) types.push(repaired);
  }
  const typeNames = new Set(types.map((t) => text(t, VALUE_TYPE, 'type')!));
  const ctx: TypeContext = { edition: '2005', custom: new Map([...typeNames].map((t) => [t, { ns: '', fields: {} }])) };
  const properties: XmpProperty[][] = [];
  for (const p of propertyItems) {
    const repaired = repairProperty(p, used, ctx, `${who()} property`, changes);
    if (repaired) properties.push(repaired);
  }
  if (typeItems) fields = setField(fields, seqOf(SCHEMA, 'valueType', types));
  if (fields.some((f) => f.ns === SCHEMA.ns && f.name === 'property')) fields = setField(fields, seqOf(SCHEMA, 'property', properties));
  return fields;
}

function repairProperty(raw: XmpProperty[], used: XmpProperty[], ctx: TypeContext, label: string, changes: string[]): XmpProperty[] | null {
  const name = text(raw, PROPERTY, 'name');
  const who = `${label} "${name ?? '?'}"`;
  let fields = ownFields(raw, PROPERTY, who, changes);
  if (!name) {
    changes.push(`${who} removed (it has no pdfaProperty:name)`);
    return null;
  }
  const value = used.find((u) => u.name === name)?.node;
  const type = fixType(text(fields, PROPERTY, 'valueType'), value, ctx);
  if (!type) {
    changes.push(`${who} removed (its value type is ${text(fields, PROPERTY, 'valueType') ? 'not defined' : 'missing'} and cannot be told from a value)`);
    return null;
  }
  if (type !== text(fields, PROPERTY, 'valueType')) {
    fields = setField(fields, simple(PROPERTY, 'valueType', type));
    changes.push(`${who}: pdfaProperty:valueType set to ${type}`);
  }
  const category = text(fields, PROPERTY, 'category');
  if (category !== 'external' && category !== 'internal') {
    const fixed = category?.toLowerCase() === 'internal' ? 'internal' : 'external';
    fields = setField(fields, simple(PROPERTY, 'category', fixed));
    changes.push(`${who}: pdfaProperty:category set to ${fixed}`);
  }
  if (!text(fields, PROPERTY, 'description')) {
    fields = setField(fields, simple(PROPERTY, 'description', name));
    changes.push(`${who}: pdfaProperty:description added`);
  }
  return fields;
}

function repairValueType(raw: XmpProperty[], used: XmpProperty[], declared: Map<string, string>, label: string, changes: string[]): XmpProperty[] | null {
  const type = text(raw, VALUE_TYPE, 'type');
  const who = `${label} "${type ?? '?'}"`;
  let fields = ownFields(raw, VALUE_TYPE, who, changes);
  if (!type) {
    changes.push(`${who} removed (it has no pdfaType:type)`);
    return null;
  }
  // The values of this type in the packet: properties declared with it (or an array of it).
  const values: Extract<XmpNode, { kind: 'struct' }>[] = [];
  for (const u of used) {
    const t = declared.get(u.name);
    if (!t || parseType(t).item !== type) continue;
    const nodes = u.node.kind === 'array' ? u.node.items : [u.node];
    for (const v of nodes) if (v.kind === 'struct') values.push(v);
  }
  const valueFields = values.flatMap((v) => v.fields);
  let ns = text(fields, VALUE_TYPE, 'namespaceURI');
  let prefix = text(fields, VALUE_TYPE, 'prefix');
  if (!ns) {
    const candidates = new Set(valueFields.filter((f) => !prefix || f.prefix === prefix).map((f) => f.ns));
    if (candidates.size !== 1) {
      changes.push(`${who} removed (it names no namespace URI, and no value shows which)`);
      return null;
    }
    ns = [...candidates][0]!;
    fields = setField(fields, simple(VALUE_TYPE, 'namespaceURI', ns));
    changes.push(`${who}: pdfaType:namespaceURI added from the values of the type`);
  }
  if (!prefix) {
    const candidates = new Set(valueFields.filter((f) => f.ns === ns).map((f) => f.prefix));
    if (candidates.size !== 1) {
      changes.push(`${who} removed (it names no prefix, and no value shows which)`);
      return null;
    }
    prefix = [...candidates][0]!;
    fields = setField(fields, simple(VALUE_TYPE, 'prefix', prefix));
    changes.push(`${who}: pdfaType:prefix added from the values of the type`);
  }
  if (!text(fields, VALUE_TYPE, 'description')) {
    fields = setField(fields, simple(VALUE_TYPE, 'description', type));
    changes.push(`${who}: pdfaType:description added`);
  }
  const ctx: TypeContext = { edition: '2005', custom: new Map() };
  let fieldItems = seqItems(fields, VALUE_TYPE, 'field', who, changes);
  if (!fieldItems) {
    // The field list from the values: each field they use, typed from its values.
    const names = [...new Set(valueFields.filter((f) => f.ns === ns).map((f) => f.name))];
    fieldItems = names.map((n) => [simple(FIELD, 'name', n), simple(FIELD, 'valueType', ''), simple(FIELD, 'description', n)]);
    changes.push(`${who}: pdfaType:field added from the values of the type (${names.length} field${names.length === 1 ? '' : 's'})`);
  }
  const repairedFields: XmpProperty[][] = [];
  for (const f of fieldItems) {
    const name = text(f, FIELD, 'name');
    const fwho = `${who} field "${name ?? '?'}"`;
    let ff = ownFields(f, FIELD, fwho, changes);
    if (!name) {
      changes.push(`${fwho} removed (it has no pdfaField:name)`);
      continue;
    }
    const sample = valueFields.find((v) => v.ns === ns && v.name === name)?.node;
    const t = fixType(text(ff, FIELD, 'valueType'), sample, ctx);
    if (!t) {
      changes.push(`${fwho} removed (its value type is missing or not defined and cannot be told from a value)`);
      continue;
    }
    if (t !== text(ff, FIELD, 'valueType')) ff = setField(ff, simple(FIELD, 'valueType', t));
    if (!text(ff, FIELD, 'description')) {
      ff = setField(ff, simple(FIELD, 'description', name));
      changes.push(`${fwho}: pdfaField:description added`);
    }
    repairedFields.push(ff);
  }
  return setField(fields, seqOf(VALUE_TYPE, 'field', repairedFields));
}

/** The value type as written when it is defined, a defined type differing only in case, else one told from a value; null when none. */
function fixType(written: string | null, value: XmpNode | undefined, ctx: TypeContext): string | null {
  if (written && isKnownType(written, ctx)) return written;
  if (written) {
    const known = [...ctx.custom.keys(), 'Text', 'URI', 'URL', 'Integer', 'Real', 'Boolean', 'Date', 'Lang Alt', 'AgentName', 'ProperName', 'MIMEType', 'Locale', 'GUID', 'Rational', 'XPath', 'RenditionClass', 'Part', 'GPSCoordinate'];
    const match = known.find((k) => k.toLowerCase() === written.toLowerCase());
    if (match) return match;
  }
  return value ? typeOfValue(value) : null;
}

/** The least specific XMP type a value has: Text (URI for a resource), arrays of Text, Lang Alt; null for structures. */
function typeOfValue(node: XmpNode): string | null {
  if (node.kind === 'simple') return node.uri ? 'URI' : 'Text';
  if (node.kind === 'struct') return null;
  if (node.items.some((i) => i.kind !== 'simple')) return null;
  if (node.form === 'Alt' && node.items.length > 0 && node.items.every((i) => i.lang !== undefined)) return 'Lang Alt';
  return `${node.form.toLowerCase()} Text`;
}
