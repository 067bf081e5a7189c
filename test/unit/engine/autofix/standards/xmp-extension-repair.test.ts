import { describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { repairExtensionSchemas } from '../../../../../lambdas/engine/autofix/standards/xmp-extension-repair';
import { extensionDefinitions } from '../../../../../lambdas/engine/core/xmp/extension-schemas';
import { readXmpPacket, type XmpProperty } from '../../../../../lambdas/engine/core/xmp/xmp-model';
import { buildPdf } from '../../../../support/pdf-fixtures';
import { applyDirect, failedRules, files, FIXED_NOW, reopen, textOf, xmpText } from './fixtures';

const NAMESPACES = [
  'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"',
  'xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"',
  'xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
  'xmlns:pdfaType="http://www.aiim.org/pdfa/ns/type#"',
  'xmlns:pdfaField="http://www.aiim.org/pdfa/ns/field#"',
  'xmlns:ps="http://www.aiim.org/pdfa/ns/schema#"',
  'xmlns:fs="http://www.example.org/fs/"',
  'xmlns:cvt="http://www.example.org/cvt/"',
].join(' ');

const packet = (body: string) =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${NAMESPACES}><rdf:Description rdf:about="">${body}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

const li = (fields: string) => `<rdf:li rdf:parseType="Resource">${fields}</rdf:li>`;
const seq = (...items: string[]) => `<rdf:Seq>${items.join('')}</rdf:Seq>`;
const PROPERTY1 = li('<pdfaProperty:name>property1</pdfaProperty:name><pdfaProperty:valueType>CustomValueType</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>A structure</pdfaProperty:description>');
const REFERENCE = li('<pdfaProperty:name>reference</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>An identifier</pdfaProperty:description>');
const FIELD1 = li('<pdfaField:name>field1</pdfaField:name><pdfaField:valueType>Boolean</pdfaField:valueType><pdfaField:description>A flag</pdfaField:description>');
const TYPE_FIELDS = {
  type: '<pdfaType:type>CustomValueType</pdfaType:type>',
  namespaceURI: '<pdfaType:namespaceURI>http://www.example.org/cvt/</pdfaType:namespaceURI>',
  prefix: '<pdfaType:prefix>cvt</pdfaType:prefix>',
  description: '<pdfaType:description>A custom type</pdfaType:description>',
  field: `<pdfaType:field>${seq(FIELD1)}</pdfaType:field>`,
};
const SCHEMA_FIELDS = {
  schema: '<pdfaSchema:schema>Example schema</pdfaSchema:schema>',
  namespaceURI: '<pdfaSchema:namespaceURI>http://www.example.org/fs/</pdfaSchema:namespaceURI>',
  prefix: '<pdfaSchema:prefix>fs</pdfaSchema:prefix>',
};
type Omit1<T> = Partial<Record<keyof T, string | null>>;

/** The extension schema (with the value type and properties given), and the properties that use it. */
function schemaPacket(opts: { schema?: Omit1<typeof SCHEMA_FIELDS>; type?: Omit1<typeof TYPE_FIELDS>; properties?: string[] } = {}): string {
  const pick = <T extends Record<string, string>>(base: T, over: Omit1<T> = {}) => Object.entries(base).map(([k, v]) => (k in over ? (over[k as keyof T] ?? '') : v)).join('');
  const type = li(pick(TYPE_FIELDS, opts.type));
  const schema = li(`${pick(SCHEMA_FIELDS, opts.schema)}<pdfaSchema:property>${seq(...(opts.properties ?? [PROPERTY1, REFERENCE]))}</pdfaSchema:property><pdfaSchema:valueType>${seq(type)}</pdfaSchema:valueType>`);
  return packet(
    `<dc:format>application/pdf</dc:format><pdfaExtension:schemas><rdf:Bag>${schema}</rdf:Bag></pdfaExtension:schemas>` +
      '<fs:property1 rdf:parseType="Resource"><cvt:field1>True</cvt:field1></fs:property1><fs:reference>R-17</fs:reference>',
  );
}

const withPacket = (xml: string) => buildPdf({ pages: [{ font: 'embedded', text: 'Archive copy' }], xmpPacket: xml });
const prepare = (bytes: Uint8Array, part = 2) => applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance: 'b', now: () => FIXED_NOW }));
const propertiesOf = async (path: string): Promise<XmpProperty[]> => readXmpPacket(xmpText(await reopen(path))).properties;
const names = (props: XmpProperty[]) => props.map((p) => `${p.prefix}:${p.name}`);

describe('pdfa.prepare: extension schema descriptions', () => {
  it('leaves a well-formed description alone', async () => {
    expect(repairExtensionSchemas(readXmpPacket(schemaPacket()))).toBeNull();
    const { outcome, path } = await prepare(await withPacket(schemaPacket()));
    expect(outcome.detail).not.toContain('extension schemas repaired');
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  // Each case: a field missing that the packet's own properties (or the description) tell, so nothing is lost.
  const derivable: [string, Parameters<typeof schemaPacket>[0], string][] = [
    ['the schema namespace URI, from the properties written with its prefix', { schema: { namespaceURI: null } }, 'pdfaSchema:namespaceURI added from the properties that use it'],
    ['the schema prefix, from the properties in its namespace', { schema: { prefix: null } }, 'pdfaSchema:prefix added from the properties that use it'],
    ['the schema description', { schema: { schema: null } }, 'pdfaSchema:schema (its description) added'],
    ['a property category, description and value type (told from its value)', { properties: [PROPERTY1, li('<pdfaProperty:name>reference</pdfaProperty:name>')] }, 'property "reference": pdfaProperty:valueType set to Text'],
    ['the value type namespace URI and prefix, from the values of the type', { type: { namespaceURI: null, prefix: null } }, 'pdfaType:prefix added from the values of the type'],
    ['the value type description', { type: { description: null } }, 'pdfaType:description added'],
    ['the value type field list, from the values of the type', { type: { field: null } }, 'pdfaType:field added from the values of the type (1 field)'],
  ];
  it.each(derivable)('fills in %s; every property stays and the file becomes PDF/A-2b', async (_, opts, change) => {
    const bytes = await withPacket(schemaPacket(opts));
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toContain('pdfa.metadata.extension-schema-structure');
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('extension schemas repaired');
    expect(outcome.detail).toContain(change);
    expect(outcome.detail).not.toMatch(/removed \d+ XMP/);
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(names(await propertiesOf(path))).toEqual(expect.arrayContaining(['fs:property1', 'fs:reference', 'pdfaExtension:schemas', 'dc:format']));
  });

  it('leaves a value type named in another case than its definition: validation matches type names without regard to case, as veraPDF does', async () => {
    const bytes = await withPacket(schemaPacket({ properties: [PROPERTY1.replace('>CustomValueType<', '>customValueType<'), REFERENCE] }));
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).not.toContain('pdfa.metadata.extension-schema-structure');
    const { path } = await prepare(bytes);
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('moves fields written in the wrong container namespace, drops undefined ones, and writes the container prefixes', async () => {
    const xml = schemaPacket({ schema: { prefix: '<ps:prefix>fs</ps:prefix><pdfaSchema:version>2</pdfaSchema:version>' } });
    const bytes = await withPacket(xml);
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toEqual(expect.arrayContaining(['pdfa.metadata.extension-schema-fields']));
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('field pdfaSchema:version removed (the schema description does not define it)');
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(xmpText(await reopen(path))).toContain('<pdfaSchema:prefix>fs</pdfaSchema:prefix>');
  });

  it('removes a description it cannot repair; the property it alone defined goes with it', async () => {
    // A property description without a name: which property it describes cannot be told.
    const bytes = await withPacket(schemaPacket({ properties: [PROPERTY1, li('<pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>?</pdfaProperty:description>')] }));
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('property "?" removed (it has no pdfaProperty:name)');
    expect(outcome.detail).toContain('removed 1 XMP property PDF/A does not allow: fs:reference');
    expect(await failedRules(path, '2b')).toEqual([]);
    const props = names(await propertiesOf(path));
    expect(props).toContain('fs:property1');
    expect(props).not.toContain('fs:reference');
  });

  it('removes a structure field without a name, and with it the values that used the field', async () => {
    const bytes = await withPacket(schemaPacket({ type: { field: `<pdfaType:field>${seq(li('<pdfaField:valueType>Boolean</pdfaField:valueType><pdfaField:description>x</pdfaField:description>'))}</pdfaType:field>` } }));
    const { outcome, path } = await prepare(bytes);
    expect(outcome.detail).toContain('removed (it has no pdfaField:name)');
    expect(outcome.detail).toContain('fs:property1');
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(names(await propertiesOf(path))).toEqual(expect.arrayContaining(['fs:reference']));
  });

  it('removes a schema no property shows the namespace of, and the container when nothing is left', async () => {
    const xml = packet(
      `<dc:format>application/pdf</dc:format><pdfaExtension:schemas><rdf:Bag>${li(`<pdfaSchema:schema>Orphan</pdfaSchema:schema><pdfaSchema:prefix>zz</pdfaSchema:prefix><pdfaSchema:property>${seq(REFERENCE)}</pdfaSchema:property>`)}</rdf:Bag></pdfaExtension:schemas>`,
    );
    const { outcome, path } = await prepare(await withPacket(xml));
    expect(outcome.detail).toContain('it names no namespace URI, and no property of the packet shows which');
    expect(outcome.detail).toContain('the extension schema container removed');
    expect(names(await propertiesOf(path))).not.toContain('pdfaExtension:schemas');
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('merges several containers into one rdf:Bag, keeping every schema', () => {
    const xml = schemaPacket().replace('</rdf:Description>', `</rdf:Description><rdf:Description rdf:about="" xmlns:more="http://www.example.org/more/"><pdfaExtension:schemas><rdf:Seq>${li('<pdfaSchema:schema>More</pdfaSchema:schema><pdfaSchema:namespaceURI>http://www.example.org/more/</pdfaSchema:namespaceURI><pdfaSchema:prefix>more</pdfaSchema:prefix>')}</rdf:Seq></pdfaExtension:schemas><more:x>1</more:x></rdf:Description>`);
    const repair = repairExtensionSchemas(readXmpPacket(xml))!;
    expect(repair.changes[0]).toBe('2 extension schema containers merged into one');
    expect(repair.container?.node).toMatchObject({ kind: 'array', form: 'Bag', items: [{ kind: 'struct' }, { kind: 'struct' }] });
    expect([...extensionDefinitions({ properties: [repair.container!], problems: [], header: null }).properties.keys()]).toEqual(['http://www.example.org/fs/', 'http://www.example.org/more/']);
  });

  it('repairs for PDF/A-1b as well, is idempotent, and keeps the page text', async () => {
    const bytes = await withPacket(schemaPacket({ schema: { prefix: null }, type: { description: null } }));
    const first = await prepare(bytes, 1);
    expect(await failedRules(first.path, '1b')).toEqual([]);
    const second = await prepare(first.bytes, 1);
    expect(second.outcome).toMatchObject({ count: 0 });
    expect(await textOf(first.path)).toContain('Archive copy');
  });

  it('never throws on containers of the wrong shape', async () => {
    const xml = packet('<pdfaExtension:schemas>just text</pdfaExtension:schemas>');
    const { outcome, path } = await prepare(await withPacket(xml));
    expect(outcome.detail).toContain('the extension schema container removed');
    expect(await failedRules(path, '2b')).toEqual([]);
  });
});
