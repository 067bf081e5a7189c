/**
 * Writes an XMP packet from the XMP data model (core/xmp/xmp-model.ts
 * reads packets into it): RDF/XML in UTF-8, wrapped in an xpacket header and
 * trailer with padding so a later editor can grow the packet in place.
 *
 * The serializer is a real one, not string splicing: every property of the
 * model (simple values, URIs, language alternatives, structures, qualified
 * values, arrays of any of these) is written in the canonical RDF forms XMP
 * readers accept, text is escaped, characters XML 1.0 cannot hold are dropped,
 * and each namespace gets exactly one prefix. Conventional prefixes are used
 * for the schemas PDF/A and PDF/X name (pdfaid, pdfxid, dc, xmp, pdf…),
 * because PDF/A requires the identification schema's prefix to be `pdfaid`.
 */
import { RDF_NS, XML_NS, type XmpNode, type XmpProperty } from '../../core/xmp/xmp-model';

/** Conventional prefixes, by namespace URI. */
const CONVENTIONAL: Readonly<Record<string, string>> = {
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://ns.adobe.com/xap/1.0/': 'xmp',
  'http://ns.adobe.com/xap/1.0/mm/': 'xmpMM',
  'http://ns.adobe.com/xap/1.0/rights/': 'xmpRights',
  'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#': 'stEvt',
  'http://ns.adobe.com/xap/1.0/sType/ResourceRef#': 'stRef',
  'http://ns.adobe.com/pdf/1.3/': 'pdf',
  'http://ns.adobe.com/pdfx/1.3/': 'pdfx',
  'http://www.aiim.org/pdfa/ns/id/': 'pdfaid',
  'http://www.aiim.org/pdfua/ns/id/': 'pdfuaid',
  'http://www.npes.org/pdfx/ns/id/': 'pdfxid',
  'http://www.aiim.org/pdfa/ns/extension/': 'pdfaExtension',
  'http://www.aiim.org/pdfa/ns/schema#': 'pdfaSchema',
  'http://www.aiim.org/pdfa/ns/property#': 'pdfaProperty',
  'http://www.aiim.org/pdfa/ns/type#': 'pdfaType',
  'http://www.aiim.org/pdfa/ns/field#': 'pdfaField',
};

/** Bytes of padding (spaces in lines) after the packet, as the XMP specification recommends. */
const PADDING_BYTES = 2048;

/** Drops characters XML 1.0 cannot represent (C0 controls other than tab, LF, CR; lone surrogates; U+FFFE/FFFF). */
export function xmlSafeText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

function escapeText(s: string): string {
  // CR is written as a reference: a literal one would be normalised away by the XML reader.
  return xmlSafeText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;');
}

/** Assigns one prefix per namespace: the conventional one, else the packet's own, else a generated one. */
class Prefixes {
  private readonly byNs = new Map<string, string>();
  private readonly used = new Set<string>(['rdf', 'x', 'xml', 'xmlns']);

  prefixOf(ns: string, wanted: string): string {
    const known = this.byNs.get(ns);
    if (known) return known;
    const candidates = [CONVENTIONAL[ns], /^[A-Za-z_][\w.-]*$/.test(wanted) && !/^xml/i.test(wanted) ? wanted : undefined].filter((c): c is string => !!c);
    let prefix = candidates.find((c) => !this.used.has(c));
    for (let i = 1; !prefix; i++) if (!this.used.has(`ns${i}`)) prefix = `ns${i}`;
    this.byNs.set(ns, prefix);
    this.used.add(prefix);
    return prefix;
  }

  declarations(): string {
    return [...this.byNs].map(([ns, p]) => ` xmlns:${p}="${escapeAttr(ns)}"`).join('');
  }
}

/** A packet holding `properties`, describing the resource `about` ("" for the document itself). */
export function writeXmpPacket(properties: readonly XmpProperty[], about = ''): Uint8Array {
  const prefixes = new Prefixes();
  // Conventional prefixes first, so a packet's odd prefix for another namespace cannot take one of them.
  const order = [...properties].sort((a, b) => Number(CONVENTIONAL[b.ns] !== undefined) - Number(CONVENTIONAL[a.ns] !== undefined));
  for (const p of order) collectNamespaces(p, prefixes);
  const body = properties.map((p) => `  ${element(p, prefixes, '  ')}`).join('\n');
  const xml =
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/">\n` +
    ` <rdf:RDF xmlns:rdf="${RDF_NS}">\n` +
    `  <rdf:Description rdf:about="${escapeAttr(about)}"${prefixes.declarations()}>\n` +
    `${body.replace(/^/gm, '  ')}\n` +
    `  </rdf:Description>\n` +
    ` </rdf:RDF>\n` +
    `</x:xmpmeta>\n` +
    `${padding()}<?xpacket end="w"?>`;
  return new TextEncoder().encode(xml);
}

function padding(): string {
  const line = `${' '.repeat(99)}\n`;
  return line.repeat(Math.ceil(PADDING_BYTES / line.length));
}

function collectNamespaces(p: XmpProperty, prefixes: Prefixes): void {
  if (p.ns !== RDF_NS) prefixes.prefixOf(p.ns, p.prefix);
  const visit = (n: XmpNode) => {
    if (n.kind === 'simple') n.qualifiers.forEach((q) => collectNamespaces(q, prefixes));
    else if (n.kind === 'struct') n.fields.forEach((f) => collectNamespaces(f, prefixes));
    else n.items.forEach(visit);
  };
  visit(p.node);
}

function qualifiedName(p: XmpProperty, prefixes: Prefixes): string {
  return p.ns === RDF_NS ? `rdf:${p.name}` : `${prefixes.prefixOf(p.ns, p.prefix)}:${p.name}`;
}

function element(p: XmpProperty, prefixes: Prefixes, indent: string): string {
  return valueElement(qualifiedName(p, prefixes), p.node, prefixes, indent);
}

/** A property element (or rdf:li) named `tag` holding `node`. */
function valueElement(tag: string, node: XmpNode, prefixes: Prefixes, indent: string): string {
  const lang = node.lang !== undefined ? ` xml:lang="${escapeAttr(node.lang)}"` : '';
  const inner = `${indent}  `;
  if (node.kind === 'simple') {
    // xml:lang is written as the attribute; other qualifiers need the rdf:value form.
    const qualifiers = node.qualifiers.filter((q) => !(q.ns === XML_NS && q.name === 'lang'));
    if (qualifiers.length === 0) {
      if (node.uri) return `<${tag}${lang} rdf:resource="${escapeAttr(node.value)}"/>`;
      return `<${tag}${lang}>${escapeText(node.value)}</${tag}>`;
    }
    const value = node.uri ? `<rdf:value rdf:resource="${escapeAttr(node.value)}"/>` : `<rdf:value>${escapeText(node.value)}</rdf:value>`;
    return [`<${tag}${lang} rdf:parseType="Resource">`, `${inner}${value}`, ...qualifiers.map((q) => `${inner}${element(q, prefixes, inner)}`), `${indent}</${tag}>`].join('\n');
  }
  if (node.kind === 'struct') {
    if (node.fields.length === 0) return `<${tag}${lang} rdf:parseType="Resource"/>`;
    return [`<${tag}${lang} rdf:parseType="Resource">`, ...node.fields.map((f) => `${inner}${element(f, prefixes, inner)}`), `${indent}</${tag}>`].join('\n');
  }
  const itemIndent = `${inner}  `;
  if (node.items.length === 0) return `<${tag}${lang}><rdf:${node.form}/></${tag}>`;
  return [
    `<${tag}${lang}>`,
    `${inner}<rdf:${node.form}>`,
    ...node.items.map((item) => `${itemIndent}${valueElement('rdf:li', item, prefixes, itemIndent)}`),
    `${inner}</rdf:${node.form}>`,
    `${indent}</${tag}>`,
  ].join('\n');
}

/** Model builders for the properties the standards fixes write. */
export const xmpValue = {
  text: (ns: string, prefix: string, name: string, value: string): XmpProperty => ({ ns, prefix, name, node: { kind: 'simple', value, uri: false, qualifiers: [] } }),
  langAlt: (ns: string, prefix: string, name: string, value: string): XmpProperty => ({
    ns,
    prefix,
    name,
    node: { kind: 'array', form: 'Alt', items: [{ kind: 'simple', value, uri: false, lang: 'x-default', qualifiers: [] }] },
  }),
  seq: (ns: string, prefix: string, name: string, values: string[]): XmpProperty => ({
    ns,
    prefix,
    name,
    node: { kind: 'array', form: 'Seq', items: values.map((value) => ({ kind: 'simple', value, uri: false, qualifiers: [] })) },
  }),
};
