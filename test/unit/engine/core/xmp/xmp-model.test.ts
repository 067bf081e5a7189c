import { describe, expect, it } from 'vitest';
import { parseXml, XmlError } from '../../../../../lambdas/engine/core/xmp/xml';
import { readXmpPacket, type XmpNode } from '../../../../../lambdas/engine/core/xmp/xmp-model';
import { typeProblem } from '../../../../../lambdas/engine/core/xmp/value-types';
import { extensionDefinitions, containerProblems } from '../../../../../lambdas/engine/core/xmp/extension-schemas';
import { NS, predefinedType } from '../../../../../lambdas/engine/core/xmp/schemas';
import { pdfDateInstant, xmpDateInstant } from '../../../../../lambdas/engine/validate/metadata/info-rules';

const RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"';
const packet = (body: string, ns = ''): string =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${RDF}>${body.replace('NS', ns)}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const ctx2005 = { edition: '2005' as const, custom: new Map() };
const ctx2004 = { edition: '2004' as const, custom: new Map() };
const simple = (value: string): XmpNode => ({ kind: 'simple', value, uri: false, qualifiers: [] });

describe('XML reader', () => {
  it('resolves namespaces of elements and attributes', () => {
    const root = parseXml('<a:r xmlns:a="urn:a" xmlns:b="urn:b" b:x="1"><b:c/></a:r>');
    expect(root.ns).toBe('urn:a');
    expect(root.attributes[0]).toMatchObject({ ns: 'urn:b', local: 'x', value: '1' });
  });
  it.each([
    ['mismatched tags', '<a><b></a></b>'],
    ['an unbound prefix', '<p:a/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['an unclosed element', '<a><b/>'],
  ])('rejects %s', (_, xml) => {
    expect(() => parseXml(xml)).toThrow(XmlError);
  });
});

describe('XMP data model', () => {
  it('reads attribute properties, arrays, parseType Resource structures and rdf:resource', () => {
    const p = readXmpPacket(
      packet(`<rdf:Description rdf:about="" xmlns:dc="${NS.dc}" xmlns:xmpMM="${NS.xmpMM}" xmlns:stRef="${NS.stRef}" dc:format="application/pdf">
        <dc:creator><rdf:Seq><rdf:li>Ann</rdf:li></rdf:Seq></dc:creator>
        <xmpMM:DerivedFrom rdf:parseType="Resource"><stRef:documentID>uuid:1</stRef:documentID></xmpMM:DerivedFrom>
        <xmpMM:DocumentID rdf:resource="uuid:2"/></rdf:Description>`),
    );
    expect(p.problems).toEqual([]);
    expect(p.properties.map((x) => `${x.prefix}:${x.name}=${x.node.kind}`)).toEqual(['dc:format=simple', 'dc:creator=array', 'xmpMM:DerivedFrom=struct', 'xmpMM:DocumentID=simple']);
  });
  it('reports RDF forms XMP does not allow', () => {
    const p = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="${NS.dc}"><dc:source rdf:parseType="Literal">x</dc:source></rdf:Description>`));
    expect(p.problems.join()).toMatch(/parseType="Literal"/);
  });
  it('reports descriptions of different resources', () => {
    const p = readXmpPacket(packet('<rdf:Description rdf:about="a"/><rdf:Description rdf:about="b"/>'));
    expect(p.problems.join()).toMatch(/different rdf:about/);
  });
  it('reads an rdf:value holding an array as that array, as the XMP toolkit does', () => {
    const p = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="${NS.dc}"><dc:subject><rdf:Description><rdf:value><rdf:Bag><rdf:li>a</rdf:li></rdf:Bag></rdf:value></rdf:Description></dc:subject></rdf:Description>`));
    expect(p.properties[0]?.node).toMatchObject({ kind: 'array', form: 'Bag' });
    expect(typeProblem(p.properties[0]!.node, 'bag Text', ctx2005)).toBeNull();
  });
  it('reads an empty property element with rdf:value as a simple value with qualifiers', () => {
    const p = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="${NS.dc}" xmlns:q="urn:q/"><dc:format rdf:value="application/pdf" q:note="x"/></rdf:Description>`));
    expect(p.problems).toEqual([]);
    expect(p.properties[0]?.node).toMatchObject({ kind: 'simple', value: 'application/pdf', qualifiers: [{ name: 'note' }] });
    expect(typeProblem(p.properties[0]!.node, 'MIMEType', ctx2005)).toBeNull();
    const both = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="${NS.dc}"><dc:format rdf:value="application/pdf">text/plain</dc:format></rdf:Description>`));
    expect(both.problems.join()).toMatch(/rdf:value and content/);
  });
  it('reads the legacy Dublin Core namespace as Dublin Core, and no other look-alike', () => {
    const legacy = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/1.1/" dc:source="x"/>`));
    expect(legacy.properties[0]?.ns).toBe(NS.dc);
    const other = readXmpPacket(packet(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1" dc:source="x"/>`));
    expect(other.properties[0]?.ns).not.toBe(NS.dc);
  });
  it('reports XML that is not well-formed instead of throwing', () => {
    expect(readXmpPacket('<x:xmpmeta>').problems[0]).toMatch(/not well-formed/);
  });
});

describe('value types', () => {
  it.each([
    ['Integer', '42', true],
    ['Integer', '4.0', false],
    ['Rational', '8/1', true],
    ['Boolean', 'True', true],
    ['Boolean', 'yes', false],
    ['Date', '2016-02-01T13:19:21+01:00', true],
    ['Date', 'Time: 2016-02-01', false],
    ['GPSCoordinate', '54,59.38N', true],
    ['GPSCoordinate', '54.5', false],
  ])('%s "%s" valid: %s', (type, value, ok) => {
    expect(typeProblem(simple(value), type, ctx2005) === null).toBe(ok);
  });
  it('requires the array form the type names', () => {
    const seq: XmpNode = { kind: 'array', form: 'Seq', items: [simple('x')] };
    expect(typeProblem(seq, 'seq Text', ctx2005)).toBeNull();
    expect(typeProblem(seq, 'bag Text', ctx2005)).toMatch(/not an rdf:Bag/);
    expect(typeProblem(simple('x'), 'LangAlt', ctx2005)).toMatch(/not a Lang Alt/);
  });
  it('checks the fields of structures', () => {
    const dims: XmpNode = { kind: 'struct', fields: [{ ns: NS.stDim, prefix: 'stDim', name: 'w', node: simple('ten') }] };
    expect(typeProblem(dims, 'Dimensions', ctx2005)).toMatch(/stDim:w/);
  });
  it('follows the edition: SupplementalCategories is Text in 2004 and a Bag in 2005, xmp:Label only in 2005', () => {
    expect(predefinedType('2004', NS.photoshop, 'SupplementalCategories')).toBe('Text');
    expect(predefinedType('2005', NS.photoshop, 'SupplementalCategories')).toBe('bag Text');
    expect(predefinedType('2004', NS.xmp, 'Label')).toBeUndefined();
    expect(predefinedType('2005', NS.xmp, 'Label')).toBe('Text');
    expect(typeProblem(simple('x'), 'Text', ctx2004)).toBeNull();
  });
});

const EXTENSION = (property: string) => `<rdf:Description rdf:about="" xmlns:pdfaExtension="${NS.pdfaExtension}" xmlns:pdfaSchema="${NS.pdfaSchema}" xmlns:pdfaProperty="${NS.pdfaProperty}">
  <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
    <pdfaSchema:schema>Custom</pdfaSchema:schema><pdfaSchema:namespaceURI>urn:custom/</pdfaSchema:namespaceURI><pdfaSchema:prefix>c</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">${property}</rdf:li></rdf:Seq></pdfaSchema:property>
  </rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>`;

describe('extension schemas', () => {
  it('define properties with their value types', () => {
    const p = readXmpPacket(
      packet(EXTENSION('<pdfaProperty:name>n</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>d</pdfaProperty:description>')),
    );
    expect(extensionDefinitions(p).properties.get('urn:custom/')?.get('n')).toBe('Integer');
    expect(containerProblems(p, () => new Set())).toEqual([]);
  });
  it('need every required field, a valid category and a defined value type', () => {
    const p = readXmpPacket(packet(EXTENSION('<pdfaProperty:name>n</pdfaProperty:name><pdfaProperty:valueType>Gadget</pdfaProperty:valueType><pdfaProperty:category>External</pdfaProperty:category>')));
    const contexts = containerProblems(p, () => new Set()).map((x) => x.context).join('\n');
    expect(contexts).toMatch(/no pdfaProperty:description/);
    expect(contexts).toMatch(/category "External"/);
    expect(contexts).toMatch(/value type "Gadget" is not defined/);
  });
});

describe('Info dates', () => {
  it('compares PDF and XMP dates as instants', () => {
    expect(pdfDateInstant("D:20150310171921+01'00'")).toBe(xmpDateInstant('2015-03-10T17:19:21+01:00'));
    expect(pdfDateInstant("D:20150310171921+01'00'")).not.toBe(xmpDateInstant('2015-03-10T17:19:21Z'));
  });
});

describe('extension value types', () => {
  it('count only when the same extension schema (namespace) defines them', () => {
    const p = readXmpPacket(
      packet(EXTENSION('<pdfaProperty:name>n</pdfaProperty:name><pdfaProperty:valueType>Gizmo</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>d</pdfaProperty:description>')),
    );
    const defined = (names: string[]) => (ns: string) => new Set(ns === 'urn:custom/' ? names : []);
    expect(containerProblems(p, defined(['Gizmo']))).toEqual([]);
    expect(containerProblems(p, () => new Set(['Gizmo'])).length).toBe(0);
    expect(containerProblems(p, (ns) => new Set(ns === 'urn:other/' ? ['Gizmo'] : [])).map((x) => x.context).join()).toMatch(/"Gizmo" is not defined/);
  });
});

