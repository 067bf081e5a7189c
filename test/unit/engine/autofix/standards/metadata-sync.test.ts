import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { metadataSyncFix, PRODUCER_SUFFIX } from '../../../../../lambdas/engine/autofix/standards/metadata-sync';
import { readXmpPacket } from '../../../../../lambdas/engine/core/xmp/xmp-model';
import { buildPdf, xmpPacket } from '../../../../support/pdf-fixtures';
import { applyDirect, edit, expectSameRendering, failedRules, FIXED_NOW, infoOf, reopen, runFixes, setInfo, textOf, xmpText } from './fixtures';

const sync = (bytes: Uint8Array) => applyDirect(bytes, (doc) => metadataSyncFix(doc, { now: () => FIXED_NOW }));
/** Rules about metadata that a PDF/A-1b validation reports (the file's other failures are not this fix's business). */
const metadataFailures = async (path: string) => (await failedRules(path, '1b')).filter((r) => r.startsWith('pdfa.metadata.') && !['pdfa.metadata.identification', 'pdfa.metadata.part', 'pdfa.metadata.conformance'].includes(r));

describe('metadata.sync', () => {
  it('creates an XMP packet from the Info dictionary, with dates and producer stamped from the clock', async () => {
    const bytes = await edit(await buildPdf({ pages: 1 }), (doc) =>
      setInfo(doc, { Title: 'Brochure <Spring> & "Summer"', Author: 'Ana Müller', Subject: 'Prices', Keywords: 'print, offset', Creator: 'InDesign', Producer: 'Acrobat Distiller', CreationDate: "D:20230102030405+02'00'" }),
    );
    const { outcome, path } = await sync(bytes);
    expect(outcome.count).toBeGreaterThan(0);
    expect(outcome.detail).toMatch(/XMP packet created/);
    const doc = await reopen(path);
    const info = infoOf(doc);
    expect(info).toMatchObject({ Title: 'Brochure <Spring> & "Summer"', Author: 'Ana Müller', Producer: `Acrobat Distiller${PRODUCER_SUFFIX}`, ModDate: 'D:20240506070809Z', CreationDate: "D:20230102030405+02'00'" });
    const xml = xmpText(doc);
    expect(xml.startsWith('<?xpacket begin="\uFEFF"')).toBe(true);
    expect(xml.trimEnd().endsWith('<?xpacket end="w"?>')).toBe(true);
    const packet = readXmpPacket(xml);
    expect(packet.problems).toEqual([]);
    const value = (local: string) => packet.properties.find((p) => p.name === local)?.node;
    expect(value('title')).toMatchObject({ kind: 'array', form: 'Alt', items: [{ value: 'Brochure <Spring> & "Summer"', lang: 'x-default' }] });
    expect(value('creator')).toMatchObject({ kind: 'array', form: 'Seq', items: [{ value: 'Ana Müller' }] });
    expect(value('CreateDate')).toMatchObject({ value: '2023-01-02T03:04:05+02:00' }); // the same instant, offset kept
    expect(value('ModifyDate')).toMatchObject({ value: '2024-05-06T07:08:09Z' });
    expect(value('MetadataDate')).toMatchObject({ value: '2024-05-06T07:08:09Z' });
    // The validator's PDF/A-1 equivalence rule (6.7.3) and the packet rules pass.
    expect(await metadataFailures(path)).toEqual([]);
  });

  it('fills the Info dictionary from XMP and keeps every other property of the packet', async () => {
    const packet = xmpPacket({ pdfa: { part: 2, conformance: 'B' }, pdfua: { part: 1 }, title: 'From XMP' });
    const { path } = await sync(await buildPdf({ pages: 1, xmpPacket: packet }));
    const doc = await reopen(path);
    expect(infoOf(doc)).toMatchObject({ Title: 'From XMP', Producer: 'Proofline' });
    const xml = xmpText(doc);
    expect(xml).toMatch(/<pdfaid:part>2<\/pdfaid:part>/);
    expect(xml).toMatch(/<pdfuaid:part>1<\/pdfuaid:part>/);
    expect(xml).toMatch(/pdfaExtension:schemas/); // the extension schema describing pdfuaid survives
    expect(await failedRules(path, '2b')).not.toContain('pdfa.metadata.extension-schema-missing');
  });

  it('removes dates that are valid on neither side and copies a valid one across', async () => {
    const bytes = await edit(await buildPdf({ pages: 1 }), (doc) => setInfo(doc, { CreationDate: 'yesterday', Title: 'T' }));
    const { path } = await sync(bytes);
    const doc = await reopen(path);
    expect(infoOf(doc).CreationDate).toBeUndefined();
    expect(xmpText(doc)).not.toMatch(/CreateDate/);
  });

  it('keeps several creators and drops the Author that cannot equal them', async () => {
    const packet = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>A</rdf:li><rdf:li>B</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const bytes = await edit(await buildPdf({ pages: 1, xmpPacket: packet }), (doc) => setInfo(doc, { Author: 'A, B' }));
    const { path } = await sync(bytes);
    const doc = await reopen(path);
    expect(infoOf(doc).Author).toBeUndefined();
    expect(xmpText(doc)).toMatch(/<rdf:li>A<\/rdf:li>\s*<rdf:li>B<\/rdf:li>/);
    expect(await metadataFailures(path)).toEqual([]);
  });

  it('replaces a packet that is not well-formed XML', async () => {
    const { outcome, path } = await sync(await buildPdf({ pages: 1, xmpPacket: '<x:xmpmeta><rdf:RDF><broken></x:xmpmeta>' }));
    expect(outcome.detail).toMatch(/not well-formed/);
    expect(readXmpPacket(xmpText(await reopen(path))).problems).toEqual([]);
  });

  it('changes nothing in a file whose Info and XMP agree, and a second run changes nothing', async () => {
    const bytes = await edit(await buildPdf({ pages: 1 }), (doc) => setInfo(doc, { Title: 'Once', Producer: 'Writer' }));
    const first = await sync(bytes);
    expect(first.outcome.count).toBeGreaterThan(0);
    const second = await applyDirect(first.bytes, (doc) => metadataSyncFix(doc, { now: () => new Date(FIXED_NOW.getTime() + 86_400_000) }));
    expect(second.outcome.count).toBe(0);
    expect(infoOf(await reopen(second.path)).ModDate).toBe('D:20240506070809Z'); // not re-stamped
    // Through the engine: reported skipped, no output written.
    const engine = await runFixes(first.bytes, ['metadata.sync']);
    expect(engine.result).toMatchObject({ changed: false, skipped: [{ fixId: 'metadata.sync' }] });
  });

  it('never changes how a page looks or its text, and the output re-opens', async () => {
    const bytes = await buildPdf({ pages: 1, pageDefaults: { font: 'embedded', text: 'Metadata only' } });
    const { outPath, path, result } = await runFixes(bytes, ['metadata.sync']);
    expect(result.applied.map((a) => a.fixId)).toEqual(['metadata.sync']);
    await reopen(outPath);
    expect(await textOf(outPath)).toContain('Metadata only');
    await expectSameRendering(path, outPath);
  });

  it('does not throw on a malformed Info dictionary', async () => {
    const bytes = await edit(await buildPdf({ pages: 1 }), (doc) => {
      setInfo(doc, { Title: 'ok' });
      const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
      info.set(PDFName.of('Author'), doc.context.obj([1, 2]));
      info.set(PDFName.of('CreationDate'), doc.context.obj(12));
    });
    const { path } = await sync(bytes);
    const info = infoOf(await reopen(path));
    expect(info.Author).toBeUndefined();
    expect(info.CreationDate).toBeUndefined();
    expect(await metadataFailures(path)).toEqual([]);
  });
});
