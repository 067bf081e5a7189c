import { describe, expect, it } from 'vitest';
import { containerProblems, declaredPropertyType, extensionDefinitions } from '../../../../../lambdas/engine/core/xmp/extension-schemas';
import { NS } from '../../../../../lambdas/engine/core/xmp/schemas';
import { readXmpPacket } from '../../../../../lambdas/engine/core/xmp/xmp-model';

const packet = (body: string): string =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${body}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const NSS = `xmlns:pdfaExtension="${NS.pdfaExtension}" xmlns:pdfaSchema="${NS.pdfaSchema}" xmlns:pdfaProperty="${NS.pdfaProperty}" xmlns:pdfaType="${NS.pdfaType}" xmlns:pdfaField="${NS.pdfaField}"`;
const schema = (ns: string, prefix: string, inner: string) =>
  `<rdf:li rdf:parseType="Resource"><pdfaSchema:schema>S</pdfaSchema:schema><pdfaSchema:namespaceURI>${ns}</pdfaSchema:namespaceURI><pdfaSchema:prefix>${prefix}</pdfaSchema:prefix>${inner}</rdf:li>`;
const container = (...schemas: string[]) => `<rdf:Description rdf:about="" ${NSS}><pdfaExtension:schemas><rdf:Bag>${schemas.join('')}</rdf:Bag></pdfaExtension:schemas></rdf:Description>`;
const property = (name: string, type: string) =>
  `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>${type}</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>d</pdfaProperty:description></rdf:li>`;
const properties = (form: string, ...items: string[]) => `<pdfaSchema:property><rdf:${form}>${items.join('')}</rdf:${form}></pdfaSchema:property>`;
const valueType = (inner: string) =>
  `<pdfaSchema:valueType><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaType:type>Serial</pdfaType:type><pdfaType:namespaceURI>urn:serial/</pdfaType:namespaceURI><pdfaType:prefix>s</pdfaType:prefix><pdfaType:description>d</pdfaType:description>${inner}</rdf:li></rdf:Seq></pdfaSchema:valueType>`;
const typesOf = (p: ReturnType<typeof readXmpPacket>) => (ns: string) => extensionDefinitions(p).typesBySchema.get(ns) ?? new Set<string>();

describe('extension schema container structure (as veraPDF’s 6.6.2.3.3 rules read it)', () => {
  it('accepts a value type without pdfaType:field, which then types values as Text', () => {
    const p = readXmpPacket(packet(container(schema('urn:m/', 'm', properties('Seq', property('serial', 'Serial')) + valueType('')))));
    expect(containerProblems(p, typesOf(p))).toEqual([]);
    expect(extensionDefinitions(p).types.get('Serial')).toEqual({ ns: 'urn:serial/', fields: {} });
  });
  it('accepts a property list written as rdf:Alt (an ordered array), but not as rdf:Bag', () => {
    const alt = readXmpPacket(packet(container(schema('urn:m/', 'm', properties('Alt', property('serial', 'Text'))))));
    expect(containerProblems(alt, typesOf(alt))).toEqual([]);
    const bag = readXmpPacket(packet(container(schema('urn:m/', 'm', properties('Bag', property('serial', 'Text'))))));
    expect(containerProblems(bag, typesOf(bag)).map((x) => x.context).join()).toMatch(/pdfaSchema:property is not an rdf:Seq/);
  });
});

describe('declaredPropertyType', () => {
  const trapped = { ns: NS.pdf, prefix: 'pdf', name: 'Trapped', node: { kind: 'simple' as const, value: 'Unknown', uri: false, qualifiers: [] } };
  it('prefers the packet’s extension schema to XMP’s own table, as veraPDF does', () => {
    const p = readXmpPacket(packet(container(schema(NS.pdf, 'pdf', properties('Seq', property('Trapped', 'Text'))))));
    expect(declaredPropertyType(extensionDefinitions(p), null, trapped, '2005')).toBe('Text');
  });
  it('prefers the catalog packet’s extension schema in PDF/A-2, and falls back to XMP’s table', () => {
    const main = readXmpPacket(packet(container(schema(NS.pdf, 'pdf', properties('Seq', property('Trapped', 'Text'))))));
    const none = { properties: new Map() };
    expect(declaredPropertyType(none, extensionDefinitions(main), trapped, '2005')).toBe('Text');
    expect(declaredPropertyType(none, null, trapped, '2005')).toBe('Boolean');
    // PDF/A-1 reads only the packet's own extension schemas, and XMP 2004 has no pdf:Trapped.
    expect(declaredPropertyType(none, extensionDefinitions(main), trapped, '2004')).toBeNull();
  });
});
