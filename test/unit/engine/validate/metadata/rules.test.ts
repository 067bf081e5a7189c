import { describe, expect, it } from 'vitest';
import { PDFName, PDFStream, PDFString } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';
import { packet } from './xmp-packet';

const files = tempFiles('validate-metadata');

async function metadataFailures(bytes: Uint8Array, profile: ValidateProfileCode) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures.filter((f) => f.ruleId.includes('metadata')).map((f) => ({ rule: f.ruleId, clause: f.clause, context: f.examples[0]?.context }));
}

const desc = (ns: string, body: string) => `<rdf:Description rdf:about="" ${ns}>${body}</rdf:Description>`;
const XMP = 'xmlns:xmp="http://ns.adobe.com/xap/1.0/"';
const TIFF = 'xmlns:tiff="http://ns.adobe.com/tiff/1.0/"';
const EXT = 'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"';
const extension = (property: string) =>
  desc(
    EXT,
    `<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Machines</pdfaSchema:schema><pdfaSchema:namespaceURI>http://example.com/ns/machines/</pdfaSchema:namespaceURI><pdfaSchema:prefix>m</pdfaSchema:prefix>
     <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">${property}</rdf:li></rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas>`,
  );
const FULL_PROPERTY =
  '<pdfaProperty:name>Serial</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>Serial number</pdfaProperty:description>';
const MACHINE = (value: string) => desc('xmlns:m="http://example.com/ns/machines/"', `<m:Serial>${value}</m:Serial>`);

describe('metadata rules', () => {
  it('accept well-formed XMP with predefined properties of the right types and a described extension property', async () => {
    const extra = desc(TIFF, '<tiff:ImageWidth>256</tiff:ImageWidth><tiff:BitsPerSample><rdf:Seq><rdf:li>8</rdf:li></rdf:Seq></tiff:BitsPerSample>') + extension(FULL_PROPERTY) + MACHINE('17');
    expect(await metadataFailures(await buildPdf(pdfaSpec(2, 'B', { xmpPacket: packet(2, 'B', extra) })), '2b')).toEqual([]);
  });

  it.each<[string, ValidateProfileCode, string, string, RegExp]>([
    ['a property no schema defines (xmp:Author)', '2b', desc(XMP, '<xmp:Author>A. N. Other</xmp:Author>'), 'pdfa.metadata.defined-properties', /xmp:Author/],
    ['a property PDF/A-1 (XMP 2004) does not know (xmp:Label)', '1b', desc(XMP, '<xmp:Label>x</xmp:Label>'), 'pdfa.metadata.defined-properties', /xmp:Label/],
    ['an Integer written with a unit', '2b', desc(TIFF, '<tiff:ImageWidth>256 mm</tiff:ImageWidth>'), 'pdfa.metadata.value-types', /"256 mm" is not a valid Integer/],
    ['a Seq where a Bag is required', '2b', desc('xmlns:dc="http://purl.org/dc/elements/1.1/"', '<dc:subject><rdf:Seq><rdf:li>a</rdf:li></rdf:Seq></dc:subject>'), 'pdfa.metadata.value-types', /not an rdf:Bag/],
    ['a custom schema without extension schema', '2b', MACHINE('17'), 'pdfa.metadata.extension-schema-missing', /m:Serial/],
    ['an extension property of the wrong type', '2b', extension(FULL_PROPERTY) + MACHINE('seventeen'), 'pdfa.metadata.value-types', /m:Serial/],
    ['an extension property description without its description field', '2b', extension(FULL_PROPERTY.replace(/<pdfaProperty:description>.*<\/pdfaProperty:description>/, '')) + MACHINE('1'), 'pdfa.metadata.extension-schema-structure', /no pdfaProperty:description/],
    ['an extension property description with a field the container does not define', '2b', extension(`${FULL_PROPERTY}<pdfaProperty:note>x</pdfaProperty:note>`) + MACHINE('1'), 'pdfa.metadata.extension-schema-fields', /pdfaProperty:note/],
    ['rdf:parseType="Literal"', '2b', desc(XMP, '<xmp:Nickname rdf:parseType="Literal">x</xmp:Nickname>'), 'pdfa.metadata.serialization', /Literal/],
  ])('fail on %s (%s)', async (_, profile, extra, rule, context) => {
    const part = Number(profile[0]);
    const failures = await metadataFailures(await buildPdf(pdfaSpec(part, 'B', { xmpPacket: packet(part, 'B', extra) })), profile);
    expect(failures).toContainEqual(expect.objectContaining({ rule, context: expect.stringMatching(context) }));
  });

  it('uses each part’s clause numbering for properties', async () => {
    const extra = desc(XMP, '<xmp:Author>x</xmp:Author>');
    const one = await metadataFailures(await buildPdf(pdfaSpec(1, 'B', { xmpPacket: packet(1, 'B', extra) })), '1b');
    const two = await metadataFailures(await buildPdf(pdfaSpec(2, 'B', { xmpPacket: packet(2, 'B', extra) })), '2b');
    expect(one.find((f) => f.rule === 'pdfa.metadata.defined-properties')?.clause).toBe('6.7.2');
    expect(two.find((f) => f.rule === 'pdfa.metadata.defined-properties')?.clause).toBe('6.6.2.3.1');
  });

  it('fails on the encoding attribute anywhere in the packet header', async () => {
    const xml = packet(2, 'B', '', 'encoding="UTF-8" begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"');
    expect(await metadataFailures(await buildPdf(pdfaSpec(2, 'B', { xmpPacket: xml })), '2b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.packet-header' }));
  });

  it('fails on an identification property written with another prefix, and on pdfaid:corr in PDF/A-1', async () => {
    const other = packet(2, 'B').replace('xmlns:pdfaid=', 'xmlns:pdfa=').replace(/pdfaid:/g, 'pdfa:');
    expect(await metadataFailures(await buildPdf(pdfaSpec(2, 'B', { xmpPacket: other })), '2b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.identification-prefix', clause: '6.6.4' }));
    const corr = packet(1, 'B').replace('pdfaid:conformance="B"', 'pdfaid:conformance="B" pdfaid:corr="2"');
    expect(await metadataFailures(await buildPdf(pdfaSpec(1, 'B', { xmpPacket: corr })), '1b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.identification-schema', clause: '6.7.11' }));
  });

  it('fails when an Info entry differs from its XMP counterpart in PDF/A-1, and accepts equal ones', async () => {
    const base = await buildPdf(pdfaSpec(1, 'B', { xmpPacket: packet(1, 'B') }));
    const setTitle = (title: string) =>
      mutatePdf(base, (doc) => {
        doc.context.trailerInfo.Info = doc.context.register(doc.context.obj({ Title: PDFString.of(title) }));
      });
    expect(await metadataFailures(await setTitle('Another title'), '1b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.info-consistency', clause: '6.7.3', context: expect.stringMatching(/Title/) }));
    expect((await metadataFailures(await setTitle('Proofline fixture'), '1b')).map((f) => f.rule)).not.toContain('pdfa.metadata.info-consistency');
  });

  it('fails when the Metadata stream is not Subtype XML', async () => {
    const bytes = await mutatePdf(await buildPdf(pdfaSpec(2, 'B')), (doc) => {
      const stream = doc.catalog.lookup(PDFName.of('Metadata'), PDFStream);
      stream.dict.set(PDFName.of('Subtype'), PDFName.of('Text'));
    });
    expect(await metadataFailures(bytes, '2b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.present' }));
  });

  it('fails PDF/UA on a pdfuaid property written with another prefix', async () => {
    const base = await buildPdf(pdfuaSpec(1));
    const ok = await metadataFailures(base, 'ua1');
    expect(ok).toEqual([]);
    const spec = pdfuaSpec(1, {
      xmpPacket: `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:ua="http://www.aiim.org/pdfua/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" ua:part="1"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">t</rdf:li></rdf:Alt></dc:title></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
    });
    expect(await metadataFailures(await buildPdf(spec), 'ua1')).toContainEqual(expect.objectContaining({ rule: 'pdfua.metadata.identification-prefix', clause: '5' }));
  });

  it('checks page metadata too, where PDF/A-2 lets the catalog packet describe custom properties', async () => {
    const withPagePacket = (catalogExtra: string) =>
      buildPdf(pdfaSpec(2, 'B', { xmpPacket: packet(2, 'B', catalogExtra) })).then((bytes) =>
        mutatePdf(bytes, (doc) => {
          const xml = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${MACHINE('5')}</rdf:RDF></x:xmpmeta>`;
          const stream = doc.context.stream(xml, { Type: 'Metadata', Subtype: 'XML' });
          doc.getPage(0).node.set(PDFName.of('Metadata'), doc.context.register(stream));
        }),
      );
    expect(await metadataFailures(await withPagePacket(''), '2b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.extension-schema-missing', context: expect.stringMatching(/m:Serial/) }));
    expect(await metadataFailures(await withPagePacket(extension(FULL_PROPERTY)), '2b')).toEqual([]);
  });

  it('reads UTF-16 packets (PDF/A-1 allows them) but requires UTF-8 from PDF/A-2 on', async () => {
    const utf16 = (part: number) =>
      buildPdf(pdfaSpec(part, 'B', { xmpPacket: packet(part, 'B') })).then((bytes) =>
        mutatePdf(bytes, (doc) => {
          const text = packet(part, 'B');
          const be = new Uint8Array(2 + text.length * 2);
          be.set([0xfe, 0xff]);
          for (let i = 0; i < text.length; i++) be.set([text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff], 2 + i * 2);
          doc.catalog.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(be, { Type: 'Metadata', Subtype: 'XML' })));
        }),
      );
    expect((await metadataFailures(await utf16(1), '1b')).map((f) => f.rule)).toEqual([]);
    expect((await metadataFailures(await utf16(2), '2b')).map((f) => f.rule)).toEqual(['pdfa.metadata.utf8']);
  });
});

