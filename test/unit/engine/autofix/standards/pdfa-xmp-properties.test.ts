import { describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { readXmpPacket } from '../../../../../lambdas/engine/core/xmp/xmp-model';
import { buildPdf } from '../../../../support/pdf-fixtures';
import { applyDirect, compliant, failedRules, files, FIXED_NOW, reopen, textOf, xmpText } from './fixtures';

const NAMESPACES = [
  'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
  'xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
  'xmlns:xmpDM="http://ns.adobe.com/xmp/1.0/DynamicMedia/"',
  'xmlns:ex="http://example.com/ns/"',
  'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"',
  'xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"',
  'xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
].join(' ');

/** A packet with the given property elements in one rdf:Description. */
const packet = (body: string) =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${NAMESPACES}><rdf:Description rdf:about="">${body}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** An extension schema describing ex:reference (Text). */
const EXTENSION = `<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
  <pdfaSchema:schema>Example</pdfaSchema:schema><pdfaSchema:namespaceURI>http://example.com/ns/</pdfaSchema:namespaceURI><pdfaSchema:prefix>ex</pdfaSchema:prefix>
  <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>reference</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>An identifier</pdfaProperty:description></rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>`;

/** A file PDF/A-safe in its content, with the given XMP packet. */
const withPacket = (xml: string) => buildPdf({ pages: [{ font: 'embedded', text: 'Archive copy' }], xmpPacket: xml });
const prepare = (bytes: Uint8Array, part: number) => applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance: 'b', now: () => FIXED_NOW }));
const propertyNames = async (path: string) => readXmpPacket(xmpText(await reopen(path))).properties.map((p) => `${p.prefix}:${p.name}`);

describe('pdfa.prepare: XMP properties PDF/A does not allow', () => {
  it('removes xmpDM properties whose values have the wrong type, and the file becomes PDF/A-2b', async () => {
    const bytes = await withPacket(
      packet(
        '<dc:format>application/pdf</dc:format><xmp:Label>Final</xmp:Label>' +
          '<xmpDM:videoFrameRate><rdf:Seq><rdf:li>25</rdf:li></rdf:Seq></xmpDM:videoFrameRate>' +
          '<xmpDM:projectRef>project.prproj</xmpDM:projectRef><xmpDM:duration rdf:parseType="Resource"><xmpDM:value>10</xmpDM:value><xmpDM:scale>1/25</xmpDM:scale></xmpDM:duration>',
      ),
    );
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toContain('pdfa.metadata.value-types');
    const { outcome, path } = await prepare(bytes, 2);
    expect(outcome.detail).toContain('removed 2 XMP properties PDF/A does not allow: xmpDM:videoFrameRate, xmpDM:projectRef');
    expect(await failedRules(path, '2b')).toEqual([]);
    expect(await compliant(path, '2b')).toBe(true);
    const names = await propertyNames(path);
    expect(names).not.toEqual(expect.arrayContaining(['xmpDM:videoFrameRate']));
    expect(names).not.toContain('xmpDM:projectRef');
    // Well-typed properties stay, among them an xmpDM structure of the right shape.
    expect(names).toEqual(expect.arrayContaining(['dc:format', 'xmp:Label', 'xmpDM:duration']));
    expect(await textOf(path)).toContain('Archive copy');
  });

  it('removes properties no schema defines for the part: PDF/A-1b judges by the 2004 XMP edition', async () => {
    const xml = packet('<dc:format>application/pdf</dc:format><xmp:Label>Final</xmp:Label><ex:undeclared>x</ex:undeclared>');
    const bytes = await withPacket(xml);
    const before = await failedRules(files.write(bytes, 'pdf'), '1b');
    expect(before).toEqual(expect.arrayContaining(['pdfa.metadata.defined-properties', 'pdfa.metadata.extension-schema-missing']));
    const { outcome, path } = await prepare(bytes, 1);
    // xmp:Label came with the 2005 edition; ex:undeclared has no extension schema.
    expect(outcome.detail).toContain('removed 2 XMP properties PDF/A does not allow: xmp:Label, ex:undeclared');
    expect(await failedRules(path, '1b')).toEqual([]);
    expect(await propertyNames(path)).toContain('dc:format');

    // For PDF/A-2b the same xmp:Label is predefined and stays.
    const two = await prepare(bytes, 2);
    expect(two.outcome.detail).toContain('removed 1 XMP property PDF/A does not allow: ex:undeclared');
    expect(await propertyNames(two.path)).toContain('xmp:Label');
    expect(await failedRules(two.path, '2b')).toEqual([]);
  });

  it('keeps every property of a packet the validator accepts, extension schema properties included', async () => {
    const xml = packet(`<dc:format>application/pdf</dc:format><xmp:Label>Final</xmp:Label><ex:reference>R-17</ex:reference>${EXTENSION}`);
    const bytes = await withPacket(xml);
    const { outcome, path } = await prepare(bytes, 2);
    expect(outcome.detail).not.toMatch(/removed \d+ XMP/);
    expect(await propertyNames(path)).toEqual(expect.arrayContaining(['dc:format', 'xmp:Label', 'ex:reference', 'pdfaExtension:schemas']));
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('writes the properties it owns in their proper form instead of removing them', async () => {
    const xml = packet('<dc:title>Plain title</dc:title><pdf:Keywords><rdf:Bag><rdf:li>print</rdf:li><rdf:li>offset</rdf:li></rdf:Bag></pdf:Keywords>');
    const bytes = await withPacket(xml);
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toContain('pdfa.metadata.value-types');
    const { outcome, path } = await prepare(bytes, 2);
    expect(outcome.detail).not.toMatch(/removed \d+ XMP/);
    const props = readXmpPacket(xmpText(await reopen(path))).properties;
    expect(props.find((p) => p.name === 'title')?.node).toMatchObject({ kind: 'array', form: 'Alt', items: [{ value: 'Plain title', lang: 'x-default' }] });
    expect(props.find((p) => p.name === 'Keywords')?.node).toMatchObject({ kind: 'simple', value: 'print, offset' });
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('is idempotent: a second run removes nothing', async () => {
    const bytes = await withPacket(packet('<xmpDM:projectRef>project.prproj</xmpDM:projectRef><ex:undeclared>x</ex:undeclared>'));
    const first = await prepare(bytes, 2);
    expect(first.outcome.detail).toContain('removed 2 XMP properties');
    const second = await prepare(first.bytes, 2);
    expect(second.outcome.count).toBe(0);
    expect(second.outcome.detail).toMatch(/already prepared/);
  });
});
