import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';
import { packet } from './xmp-packet';

const files = tempFiles('validate-metadata-properties');

async function metadataFailures(extra: string) {
  return failuresOf(await buildPdf(pdfaSpec(2, 'B', { xmpPacket: packet(2, 'B', extra) })), '2b');
}

async function failuresOf(bytes: Uint8Array, profile: ValidateProfileCode) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures.filter((f) => f.ruleId.includes('metadata')).map((f) => ({ rule: f.ruleId, clause: f.clause, context: f.examples[0]?.context }));
}

const EXT_NS =
  'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#" xmlns:pdfaType="http://www.aiim.org/pdfa/ns/type#"';
const extension = (ns: string, prefix: string, name: string, type: string, valueTypes = '') =>
  `<rdf:Description rdf:about="" ${EXT_NS}><pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
  <pdfaSchema:schema>S</pdfaSchema:schema><pdfaSchema:namespaceURI>${ns}</pdfaSchema:namespaceURI><pdfaSchema:prefix>${prefix}</pdfaSchema:prefix>
  <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>${type}</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>d</pdfaProperty:description></rdf:li></rdf:Seq></pdfaSchema:property>
  ${valueTypes}</rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>`;
const PDF_NS = 'http://ns.adobe.com/pdf/1.3/';
const trapped = (value: string) => `<rdf:Description rdf:about="" xmlns:pdf="${PDF_NS}"><pdf:Trapped>${value}</pdf:Trapped></rdf:Description>`;

describe('value types of properties an extension schema describes (6.6.2.3.1)', () => {
  it('judge a predefined property by the extension schema that describes it: pdf:Trapped described as Text may be "Unknown"', async () => {
    expect(await metadataFailures(extension(PDF_NS, 'pdf', 'Trapped', 'Text') + trapped('Unknown'))).toEqual([]);
  });
  it('judge it by XMP’s own type when no extension schema describes it: "Unknown" is not a Boolean', async () => {
    expect(await metadataFailures(trapped('Unknown'))).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.value-types', clause: '6.6.2.3.1', context: expect.stringMatching(/pdf:Trapped/) }));
  });
});

describe('value types described without fields (6.6.2.3.3)', () => {
  const M = 'http://example.com/ns/machines/';
  const serialType =
    '<pdfaSchema:valueType><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaType:type>Serial</pdfaType:type><pdfaType:namespaceURI>http://example.com/ns/serial/</pdfaType:namespaceURI><pdfaType:prefix>s</pdfaType:prefix><pdfaType:description>d</pdfaType:description></rdf:li></rdf:Seq></pdfaSchema:valueType>';
  it('are Text: a simple value of such a type conforms', async () => {
    const value = `<rdf:Description rdf:about="" xmlns:m="${M}"><m:serial>A-17</m:serial></rdf:Description>`;
    expect(await metadataFailures(extension(M, 'm', 'serial', 'Serial', serialType) + value)).toEqual([]);
  });
  it('do not describe a structure: a structure of such a type fails the container structure and its value type', async () => {
    const value = `<rdf:Description rdf:about="" xmlns:m="${M}" xmlns:s="http://example.com/ns/serial/"><m:serial rdf:parseType="Resource"><s:part>A</s:part></m:serial></rdf:Description>`;
    const failures = await metadataFailures(extension(M, 'm', 'serial', 'Serial', serialType) + value);
    expect(failures).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.extension-schema-structure', clause: '6.6.2.3.3', context: expect.stringMatching(/m:serial .*no pdfaType:field/) }));
    expect(failures).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.value-types', clause: '6.6.2.3.1' }));
  });
});

describe('which packets the property rules read', () => {
  // A page's own packet with a property of a schema nobody describes.
  const withPagePacket = (part: number) =>
    buildPdf(pdfaSpec(part, 'B', { xmpPacket: packet(part, 'B') })).then((bytes) =>
      mutatePdf(bytes, (doc) => {
        const xml = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:m="http://example.com/ns/machines/"><m:serial>5</m:serial></rdf:Description></rdf:RDF></x:xmpmeta>`;
        doc.getPage(0).node.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(xml, { Type: 'Metadata', Subtype: 'XML' })));
      }),
    );
  it('PDF/A-1 reads only the catalog’s packet: a page’s own packet is not judged', async () => {
    expect(await failuresOf(await withPagePacket(1), '1b')).toEqual([]);
  });
  it('PDF/A-2 reads every packet: the page’s undescribed property fails', async () => {
    expect(await failuresOf(await withPagePacket(2), '2b')).toContainEqual(expect.objectContaining({ rule: 'pdfa.metadata.extension-schema-missing', context: expect.stringMatching(/m:serial/) }));
  });
});
