/**
 * The XMP data model of a packet (XMP Specification part 1 / ISO 16684-1):
 * the RDF/XML of the packet read into properties, each a simple value, a
 * structure or an array (Bag, Seq, Alt), with the namespace URI and the prefix
 * the packet used. It honours the RDF forms XMP writers produce: properties as
 * attributes of rdf:Description, rdf:resource, rdf:parseType="Resource",
 * nested rdf:Description, property elements whose attributes are fields, and
 * qualified values (rdf:value). Forms XMP does not allow (parseType Literal or
 * Collection, text mixed with elements, several values for one property) are
 * recorded as serialization problems instead of being guessed at.
 */
import { elementsOf, parseXml, textOf, XmlError, type XmlElement } from './xml';

export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export type XmpNode =
  | { kind: 'simple'; value: string; uri: boolean; lang?: string; qualifiers: XmpProperty[] }
  | { kind: 'struct'; fields: XmpProperty[]; lang?: string }
  | { kind: 'array'; form: 'Bag' | 'Seq' | 'Alt'; items: XmpNode[]; lang?: string };

export interface XmpProperty {
  ns: string;
  prefix: string;
  name: string;
  node: XmpNode;
}

export interface XmpPacket {
  /** Top-level properties of every rdf:Description, in document order. */
  properties: XmpProperty[];
  /** Ways the packet breaks XML or the XMP serialization of RDF (empty when it is well-formed XMP). */
  problems: string[];
  /** The xpacket header (null when the packet has none). */
  header: string | null;
}

/** Reads a packet's text. Never throws: unreadable XML becomes a problem and no properties. */
export function readXmpPacket(xml: string): XmpPacket {
  // The header is the first xpacket instruction that is not the trailer (attributes may come in any order).
  const first = /<\?xpacket\b[^?]*\?>/.exec(xml)?.[0] ?? null;
  const header = first && !/\bend\s*=/.test(first) ? first : null;
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    return { properties: [], problems: [`not well-formed XML: ${err instanceof XmlError ? err.message : String(err)}`], header };
  }
  const problems: string[] = [];
  const rdf = findRdf(root);
  if (!rdf) return { properties: [], problems: ['the packet has no rdf:RDF element'], header };
  const properties: XmpProperty[] = [];
  let about: string | null = null;
  for (const d of elementsOf(rdf)) {
    if (!(d.ns === RDF_NS && d.local === 'Description')) {
      problems.push(`rdf:RDF contains <${d.prefix ? d.prefix + ':' : ''}${d.local}> instead of rdf:Description`);
      continue;
    }
    const a = d.attributes.find((x) => x.ns === RDF_NS && x.local === 'about')?.value ?? null;
    if (a !== null) {
      if (about === null) about = a;
      // Every top-level description describes the same resource (XMP part 1, 7.4).
      else if (a !== about && a !== '' && about !== '') problems.push(`rdf:Description elements have different rdf:about values ("${about}", "${a}")`);
    }
    properties.push(...descriptionFields(d, problems));
  }
  for (const t of rdf.children) if (typeof t === 'string' && t.trim()) problems.push('rdf:RDF contains text');
  return { properties, problems, header };
}

function findRdf(el: XmlElement): XmlElement | null {
  if (el.ns === RDF_NS && el.local === 'RDF') return el;
  for (const c of elementsOf(el)) {
    const found = findRdf(c);
    if (found) return found;
  }
  return null;
}

const isRdf = (x: { ns: string; local: string }, local: string): boolean => x.ns === RDF_NS && x.local === local;

/**
 * A property's namespace as the XMP toolkit records it: the legacy Dublin Core
 * URI "http://purl.org/dc/1.1/" is read as Dublin Core's own (ParseRDF
 * addChildNode), so veraPDF finds dc:title written with it predefined.
 */
const propertyNs = (ns: string): string => (ns === 'http://purl.org/dc/1.1/' ? 'http://purl.org/dc/elements/1.1/' : ns);

/** Attributes of an rdf:Description (or of a property element) that are properties or fields. */
function attributeFields(el: XmlElement, problems: string[]): XmpProperty[] {
  const out: XmpProperty[] = [];
  for (const a of el.attributes) {
    if (a.ns === RDF_NS) {
      if (!['about', 'ID', 'nodeID', 'resource', 'parseType', 'datatype', 'value'].includes(a.local)) problems.push(`rdf:${a.local} is not an RDF attribute XMP allows`);
      continue;
    }
    if (a.ns === XML_NS) continue;
    // Old RDF writers leave about/ID unqualified; XMP parsers read them as rdf:about/rdf:ID (issue15910.pdf in pdf.js's corpus).
    if (a.ns === '' && (a.local === 'about' || a.local === 'ID')) continue;
    if (a.ns === '') {
      problems.push(`attribute ${a.local} has no namespace`);
      continue;
    }
    out.push({ ns: propertyNs(a.ns), prefix: a.prefix, name: a.local, node: { kind: 'simple', value: a.value, uri: false, qualifiers: [] } });
  }
  return out;
}

function descriptionFields(d: XmlElement, problems: string[]): XmpProperty[] {
  const out = attributeFields(d, problems);
  for (const t of d.children) if (typeof t === 'string' && t.trim()) problems.push('rdf:Description contains text');
  for (const c of elementsOf(d)) {
    if (c.ns === '' || (c.ns === RDF_NS && c.local !== 'value')) {
      problems.push(`<${c.prefix ? c.prefix + ':' : ''}${c.local}> is not a property element`);
      continue;
    }
    out.push({ ns: propertyNs(c.ns), prefix: c.prefix, name: c.local, node: propertyValue(c, problems) });
  }
  return out;
}

/** The value of a property element (or of an rdf:li). */
function propertyValue(el: XmlElement, problems: string[]): XmpNode {
  const lang = el.attributes.find((a) => a.ns === XML_NS && a.local === 'lang')?.value;
  const resource = el.attributes.find((a) => isRdf(a, 'resource'));
  const parseType = el.attributes.find((a) => isRdf(a, 'parseType'))?.value;
  const children = elementsOf(el);
  const hasText = el.children.some((c) => typeof c === 'string' && c.trim() !== '');
  if (children.length && hasText) problems.push(`<${el.prefix}:${el.local}> mixes text and elements`);
  // <ns:Prop rdf:value="…" ns:Qual="…"/> is a simple value with qualifiers, as the XMP toolkit reads an empty property element.
  const valueAttr = el.attributes.find((a) => isRdf(a, 'value'));
  if (valueAttr && !resource) {
    if (children.length || hasText) problems.push(`<${el.prefix}:${el.local}> has rdf:value and content`);
    return { kind: 'simple', value: valueAttr.value, uri: false, lang, qualifiers: attributeFields(el, problems) };
  }
  if (resource) {
    if (children.length || hasText) problems.push(`<${el.prefix}:${el.local}> has rdf:resource and content`);
    return { kind: 'simple', value: resource.value, uri: true, lang, qualifiers: attributeFields(el, problems) };
  }
  if (parseType !== undefined) {
    if (parseType !== 'Resource') {
      problems.push(`rdf:parseType="${parseType}" is not allowed in XMP`);
      return { kind: 'simple', value: textOf(el), uri: false, lang, qualifiers: [] };
    }
    return structOrQualified(descriptionFieldsOf(el, problems), lang);
  }
  if (children.length > 1) {
    problems.push(`<${el.prefix}:${el.local}> has more than one value element`);
  }
  const only = children[0];
  if (!only) {
    const fields = attributeFields(el, problems);
    // A property element with field attributes and no content is a structure.
    if (fields.length) return structOrQualified(fields, lang);
    return { kind: 'simple', value: textOf(el), uri: false, lang, qualifiers: [] };
  }
  if (only.ns === RDF_NS && (only.local === 'Bag' || only.local === 'Seq' || only.local === 'Alt')) {
    const items: XmpNode[] = [];
    for (const li of elementsOf(only)) {
      if (!isRdf(li, 'li')) {
        problems.push(`rdf:${only.local} contains <${li.prefix}:${li.local}> instead of rdf:li`);
        continue;
      }
      items.push(propertyValue(li, problems));
    }
    return { kind: 'array', form: only.local, items, lang };
  }
  if (isRdf(only, 'Description')) {
    const fields = descriptionFields(only, problems);
    return structOrQualified(fields, lang);
  }
  problems.push(`<${el.prefix}:${el.local}> contains <${only.prefix}:${only.local}>, which is neither an array nor a description`);
  return { kind: 'struct', fields: [], lang };
}

/** Children of a parseType="Resource" property element are the fields. */
function descriptionFieldsOf(el: XmlElement, problems: string[]): XmpProperty[] {
  const out: XmpProperty[] = [];
  for (const c of elementsOf(el)) {
    if (c.ns === '') {
      problems.push(`<${c.local}> has no namespace`);
      continue;
    }
    out.push({ ns: propertyNs(c.ns), prefix: c.prefix, name: c.local, node: propertyValue(c, problems) });
  }
  return out;
}

/**
 * A structure, or a qualified value when it has an rdf:value field. The value
 * keeps its own form: an rdf:value holding an rdf:Bag makes the property that
 * array, as the XMP toolkit's fixupQualifiedNode (which veraPDF parses with)
 * reads it; the qualifiers of an array or structure are not kept.
 */
function structOrQualified(fields: XmpProperty[], lang: string | undefined): XmpNode {
  const value = fields.find((f) => f.ns === RDF_NS && f.name === 'value');
  if (!value) return { kind: 'struct', fields, lang };
  if (value.node.kind === 'simple') return { ...value.node, lang: lang ?? value.node.lang, qualifiers: fields.filter((f) => f !== value) };
  return { ...value.node, lang: lang ?? value.node.lang };
}

/** `prefix:name` as the packet wrote it. */
export const qname = (p: { prefix: string; name: string }): string => `${p.prefix}:${p.name}`;
