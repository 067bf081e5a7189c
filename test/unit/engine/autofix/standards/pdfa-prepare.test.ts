import { readFileSync } from 'node:fs';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, type PDFRawStream, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFDocument as Doc } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { srgbProfile } from '../../../../../lambdas/engine/autofix/standards/rgb-profiles';
import { parseIccHeader, readOutputIntents } from '../../../../../lambdas/engine/core/output-intents';
import { readXmp } from '../../../../../lambdas/engine/core/xmp/identification';
import { buildPdf, type PdfSpec } from '../../../../support/pdf-fixtures';
import { applyDirect, compliant, edit, expectSameRendering, failedRules, files, FIXED_NOW, iccHeaderOnly, preflightIds, reopen, runFixes, setAnnotationFlags, textOf, xmpText } from './fixtures';

/** A file whose content is PDF/A-safe (embedded font) but whose declarations and structure are not. */
const structural = (extra: PdfSpec = {}): PdfSpec => ({
  pages: [{ font: 'embedded', javaScriptLink: 'app.alert(1)', launchLink: true, pageOpenJavaScript: 'x()', uriLink: 'https://example.com/' }],
  documentJavaScript: 'app.alert(2)',
  openAction: 'javascript',
  trailerId: false,
  ...extra,
});

const prepare = (part: number) => ({ fixParams: { 'pdfa.prepare': { part } } });

/** The decoded bytes of an output intent's profile. */
const srgbOf = (doc: Doc, intent: PDFDict): Uint8Array => {
  const stream = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile')) as PDFRef) as PDFStream;
  return decodePDFRawStream(stream as PDFRawStream).decode();
};

describe('pdfa.prepare', () => {
  it('makes a file that fails PDF/A-2b only for declarations and structure compliant', async () => {
    const bytes = await buildPdf(structural({ version: '2.0' }));
    const before = await failedRules(files.write(bytes, 'pdf'), '2b');
    expect(before).toEqual(expect.arrayContaining(['pdfa.file.header', 'pdfa.trailer.id', 'pdfa.metadata.present', 'pdfa.actions.types', 'pdfa.annotations.flags-present', 'pdfa.colour.rgb', 'pdfa.actions.additional']));
    const { outPath, result } = await runFixes(bytes, ['pdfa.prepare'], prepare(2));
    expect(result.applied).toEqual([{ fixId: 'pdfa.prepare', count: expect.any(Number), pages: [1] }]);
    expect(await failedRules(outPath, '2b')).toEqual([]);
    expect(await compliant(outPath, '2b')).toBe(true);
    // The claim is in place, so `auto` validation finds it too.
    expect(readXmp(await reopen(outPath)).pdfa).toMatchObject({ part: { value: '2', prefix: 'pdfaid' }, conformance: { value: 'B' } });
    expect(await preflightIds(outPath, 'default')).not.toContain('document.javascript');
  });

  it('does the same for PDF/A-1b, and keeps web links (PDF/A permits them)', async () => {
    const bytes = await buildPdf(structural());
    expect(await compliant(files.write(bytes, 'pdf'), '1b')).toBe(false);
    const { outPath } = await runFixes(bytes, ['pdfa.prepare'], prepare(1));
    expect(await failedRules(outPath, '1b')).toEqual([]);
    const doc = await reopen(outPath);
    const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    const actions = annots.asArray().map((a) => (doc.context.lookup(a) as PDFDict).lookup(PDFName.of('A'))).filter((a): a is PDFDict => a instanceof PDFDict);
    expect(actions.map((a) => a.get(PDFName.of('S'))?.toString())).toEqual(['/URI']);
  });

  it('prepares PDF/A-3b', async () => {
    const { outPath } = await runFixes(await buildPdf(structural()), ['pdfa.prepare'], prepare(3));
    expect(await compliant(outPath, '3b')).toBe(true);
  });

  it('does not claim more than it fixes: a non-embedded font remains the only failure', async () => {
    const { outPath } = await runFixes(await buildPdf(structural({ pages: [{ font: 'standard', javaScriptLink: 'x()' }] })), ['pdfa.prepare'], prepare(2));
    expect(await failedRules(outPath, '2b')).toEqual(['pdfa.fonts.embedded']);
    expect(await compliant(outPath, '2b')).toBe(false);
  });

  it('sets the Print flag and clears Hidden and NoView on annotations', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded', uriLink: 'https://example.com/' }] }), (doc) => setAnnotationFlags(doc, 2 | 32));
    const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b', now: () => FIXED_NOW }));
    expect(outcome.pages).toEqual([1]);
    const annot = (await reopen(path)).getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).lookup(0, PDFDict);
    expect(annot.get(PDFName.of('F'))?.toString()).toBe('4');
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it("reuses the file's own output profile rather than adding a second one", async () => {
    const { outPath } = await runFixes(await buildPdf({ pages: [{ font: 'embedded' }], outputIntent: 'pdfx-srgb' }), ['pdfa.prepare'], prepare(2));
    const intents = readOutputIntents(await reopen(outPath));
    expect(intents.map((i) => i.subtype)).toEqual(['GTS_PDFX', 'GTS_PDFA1']);
    expect(intents[0]!.profileObjectNumber).toBe(intents[1]!.profileObjectNumber);
    expect(await failedRules(outPath, '2b')).toEqual([]);
  });

  it('adds its built-in sRGB profile, a version 2 display profile colour management reads as sRGB', async () => {
    const { outPath } = await runFixes(await buildPdf({ pages: [{ font: 'embedded' }] }), ['pdfa.prepare'], prepare(1));
    const [intent] = readOutputIntents(await reopen(outPath));
    expect(intent).toMatchObject({ subtype: 'GTS_PDFA1', outputConditionIdentifier: 'sRGB IEC61966-2.1', profile: { deviceClass: 'mntr', colourSpace: 'RGB ', major: 2 } });
    const icc = Buffer.from(srgbProfile());
    expect(parseIccHeader(icc)).toMatchObject({ version: '2.1' });
    expect(icc.readUInt32BE(0)).toBe(icc.length);
    // Little CMS (through sharp) reads the profile: converting sRGB pixels into it changes nothing, while a
    // copy with its red and blue colorants swapped swaps the channels (so the profile is really parsed).
    const iccPath = files.write(icc, 'icc');
    const swapped = Buffer.from(icc);
    const table = swapped.indexOf(Buffer.from('rXYZ'));
    const red = swapped.readUInt32BE(table + 4);
    swapped.writeUInt32BE(swapped.readUInt32BE(table + 28), table + 4);
    swapped.writeUInt32BE(red, table + 28);
    const swappedPath = files.write(swapped, 'icc');
    const px = Buffer.from([255, 0, 0, 0, 128, 0, 20, 40, 200, 250, 250, 250]);
    const png = await sharp(px, { raw: { width: 4, height: 1, channels: 3 } }).png().toBuffer();
    const through = async (p: string) => [...(await sharp(png).withIccProfile(p).raw().toBuffer())];
    const same = await through(iccPath);
    same.forEach((v, i) => expect(Math.abs(v - px[i]!)).toBeLessThanOrEqual(1));
    expect((await through(swappedPath)).slice(0, 3)).toEqual([0, 0, 255]);
  });

  it('keeps an output intent whose unusable profile declares a condition it has no profile for (eciRGB), rather than changing what its colours mean', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }], outputIntent: 'pdfa-srgb' }), (doc) => {
      const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
      intent.set(PDFName.of('OutputConditionIdentifier'), PDFString.of('eciRGB v2'));
      const profile = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile')) as PDFRef) as PDFStream;
      profile.dict.set(PDFName.of('Filter'), PDFName.of('Bogus')); // unreadable
    });
    const { outPath } = await runFixes(bytes, ['pdfa.prepare'], prepare(2));
    expect(readOutputIntents(await reopen(outPath))).toMatchObject([{ outputConditionIdentifier: 'eciRGB v2', profile: null }]);
    expect(await failedRules(outPath, '2b')).toContain('pdfa.output-intent.profile');
  });

  it('replaces an unusable profile with sRGB where the intent declares sRGB and the pages paint no CMYK', async () => {
    const withProfile = async (icc: Uint8Array, colourSpace?: 'cmyk') =>
      edit(await buildPdf({ pages: [{ font: 'embedded', ...(colourSpace ? { colourSpace } : {}) }], outputIntent: 'pdfa-srgb' }), (doc) => {
        const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
        intent.set(PDFName.of('DestOutputProfile'), doc.context.register(doc.context.flateStream(icc, { N: 3 })));
      });
    // An input (scanner) class profile is not an output condition.
    const bytes = await withProfile(iccHeaderOnly('scnr', 'RGB '));
    expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toContain('pdfa.output-intent.profile');
    const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b', now: () => FIXED_NOW }));
    expect(outcome.detail).toContain('output intent profile replaced by sRGB (the file\'s own was of device class "scnr")');
    expect(readOutputIntents(await reopen(path))).toMatchObject([{ subtype: 'GTS_PDFA1', outputConditionIdentifier: 'sRGB IEC61966-2.1', profile: { deviceClass: 'mntr', colourSpace: 'RGB ' } }]);
    expect(await failedRules(path, '2b')).toEqual([]);
    // A version 4 display profile is fine for PDF/A-2 but not for PDF/A-1 (ICC version 2 at most).
    const v4 = await withProfile(iccHeaderOnly('mntr', 'RGB ', 4));
    expect((await applyDirect(v4, (doc) => preparePdfa(doc, { part: 1, conformance: 'b' }))).outcome.detail).toContain('ICC version 4.1, above the 2 PDF/A-1 allows');
    // CMYK content under an sRGB intent would be uncalibrated: the intent is left as it is.
    const cmyk = await withProfile(iccHeaderOnly('scnr', 'RGB '), 'cmyk');
    expect((await applyDirect(cmyk, (doc) => preparePdfa(doc, { part: 2, conformance: 'b' }))).outcome.detail).not.toContain('replaced by sRGB');
  });

  it('adds sRGB to a PDF/A intent without a profile that declares a custom condition', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }], outputIntent: 'pdfa-no-profile' }), (doc) => {
      doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict).set(PDFName.of('OutputConditionIdentifier'), PDFString.of('Custom'));
    });
    const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 1, conformance: 'b' }));
    expect(outcome.detail).toContain('output intent profile added (sRGB)');
    expect(await failedRules(path, '1b')).toEqual([]);
  });

  it('makes output intents carrying copies of one profile share it, and drops an external profile reference beside an embedded one', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }], outputIntent: 'pdfx-srgb' }), (doc) => {
      const ctx = doc.context;
      const intents = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
      const pdfx = intents.lookup(0, PDFDict);
      const copy = ctx.flateStream(srgbOf(doc, pdfx), { N: 3 });
      pdfx.set(PDFName.of('DestOutputProfileRef'), ctx.obj({ ProfileName: PDFString.of('sRGB') }));
      intents.push(ctx.obj({ Type: 'OutputIntent', S: 'GTS_PDFA1', OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'), DestOutputProfile: ctx.register(copy) }));
    });
    expect(await failedRules(files.write(bytes, 'pdf'), '4')).toEqual(expect.arrayContaining(['pdfa.output-intent.single-profile', 'pdfa.output-intent.no-profile-ref']));
    const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 4, conformance: '' }));
    expect(outcome.detail).toContain('output intents made to share their one profile');
    expect(outcome.detail).toContain('external profile reference (DestOutputProfileRef) removed');
    const intents = readOutputIntents(await reopen(path));
    expect(intents.map((i) => [i.subtype, i.hasProfileRef])).toEqual([['GTS_PDFX', false], ['GTS_PDFA1', false]]);
    expect(intents[0]!.profileObjectNumber).toBe(intents[1]!.profileObjectNumber);
    expect(await failedRules(path, '4')).toEqual([]);
  });

  it('leaves a signed file alone: rewriting it would invalidate the signature', async () => {
    const bytes = await edit(await buildPdf(structural()), (doc) => {
      const ctx = doc.context;
      const sig = ctx.register(ctx.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached', ByteRange: [0, 100, 200, 300], Contents: PDFHexString.of('00'.repeat(64)) }));
      const field = ctx.register(ctx.obj({ FT: 'Sig', T: PDFString.of('Signature1'), V: sig, Subtype: 'Widget', Type: 'Annot', Rect: [0, 0, 0, 0], F: 4 }));
      doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field], SigFlags: 3 }));
    });
    const { outcome } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b' }));
    expect(outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/digitally signed \(1 signed signature field\).*invalidate the signature.*Remove the signature/) });
    const { result } = await runFixes(bytes, ['pdfa.prepare'], prepare(2));
    expect(result).toMatchObject({ changed: false, skipped: [{ fixId: 'pdfa.prepare', reason: expect.stringContaining('digitally signed') }] });
    // An empty signature field (nothing signed yet) does not stop it.
    const unsigned = await edit(await buildPdf(structural()), (doc) => {
      const ctx = doc.context;
      doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [ctx.register(ctx.obj({ FT: 'Sig', T: PDFString.of('Signature1') }))] }));
    });
    expect((await applyDirect(unsigned, (doc) => preparePdfa(doc, { part: 2, conformance: 'b' }))).outcome.count).toBeGreaterThan(0);
  });

  it('writes a linearized file whole, and drops a catalog Version the part does not allow', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }] }), (doc) => {
      doc.context.register(doc.context.obj({ Linearized: 1, L: 1000, H: [0, 0], O: 1, E: 0, N: 1, T: 0 }));
      doc.catalog.set(PDFName.of('Version'), PDFName.of('2.0'));
    });
    const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b' }));
    expect(outcome.detail).toContain('linearization dropped');
    expect(outcome.detail).toContain('catalog Version removed');
    const doc = await reopen(path);
    expect(doc.context.enumerateIndirectObjects().some(([, o]) => o instanceof PDFDict && o.has(PDFName.of('Linearized')))).toBe(false);
    expect(doc.catalog.has(PDFName.of('Version'))).toBe(false);
    expect(await failedRules(path, '2b')).toEqual([]);
  });

  it('rewrites an XMP packet PDF/A rejects for its form alone: UTF-16, or a header with bytes or encoding', async () => {
    const prepared = (await applyDirect(await buildPdf({ pages: [{ font: 'embedded' }] }), (doc) => preparePdfa(doc, { part: 2, conformance: 'b', now: () => FIXED_NOW }))).bytes;
    const reencode = (to: (xml: string) => Uint8Array) =>
      edit(prepared, (doc) => {
        const ref = doc.catalog.get(PDFName.of('Metadata')) as PDFRef;
        doc.context.assign(ref, doc.context.stream(to(xmpText(doc)), { Type: 'Metadata', Subtype: 'XML' }));
      });
    const utf16 = await reencode((xml) => new Uint8Array([0xfe, 0xff, ...Buffer.from(xml, 'utf16le').swap16()]));
    const withBytes = await reencode((xml) => new TextEncoder().encode(xml.replace('<?xpacket begin', '<?xpacket bytes="4096" begin')));
    for (const [bytes, why, rule] of [[utf16, 'it was not UTF-8', 'pdfa.metadata.utf8'], [withBytes, 'its header had bytes or encoding attributes', 'pdfa.metadata.packet-header']] as const) {
      expect(await failedRules(files.write(bytes, 'pdf'), '2b')).toEqual([rule]);
      const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b', now: () => FIXED_NOW }));
      expect(outcome.detail).toContain(`XMP packet rewritten (${why})`);
      expect(await failedRules(path, '2b')).toEqual([]);
      expect(readXmp(await reopen(path)).pdfa).toMatchObject({ part: { value: '2' } });
    }
  });

  it('changes nothing on a second run and reports a compliant file skipped', async () => {
    const first = await runFixes(await buildPdf(structural()), ['pdfa.prepare'], prepare(2));
    const second = await runFixes(new Uint8Array(readFileSync(first.outPath)), ['pdfa.prepare'], prepare(2));
    expect(second.result).toMatchObject({ changed: false, applied: [], skipped: [{ fixId: 'pdfa.prepare' }] });
  });

  it('refuses levels a part does not have, without touching the file', async () => {
    for (const [part, conformance, hint] of [[4, 'b', 'PDF/A-4 has the levels "" (none), e, f.'], [1, 'u', 'PDF/A-1 has the levels a, b.'], [5, 'b', '']] as const) {
      const bytes = await buildPdf({ pages: 1 });
      const { outcome, bytes: after } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance }));
      expect(outcome).toMatchObject({ count: 0, skipReason: expect.stringContaining(`PDF/A-${part}${conformance.toUpperCase()} is not a level this fix prepares`) });
      expect(outcome.skipReason).toContain(hint);
      expect(xmpText(await PDFDocument.load(after))).toBe('');
    }
  });

  it('keeps the page content: same rendering without annotations, text still extractable', async () => {
    const bytes = await buildPdf({ pages: [{ font: 'embedded', text: 'Archive me' }], documentJavaScript: 'x', trailerId: false });
    const { path, outPath } = await runFixes(bytes, ['pdfa.prepare'], prepare(2));
    expect(await textOf(outPath)).toContain('Archive me');
    await expectSameRendering(path, outPath);
  });

  it('does not throw on malformed annotations and actions', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }] }), (doc) => {
      const ctx = doc.context;
      doc.getPage(0).node.set(PDFName.of('Annots'), ctx.obj([ctx.obj({ Subtype: 'Link', F: 'not a number', AP: ctx.obj({ N: 5, D: 6 }) }), 42, ctx.obj({ Subtype: 'Widget', A: 7, AA: ctx.obj({}) })]));
      doc.catalog.set(PDFName.of('AA'), ctx.obj(3));
      doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj({ S: 'GTS_PDFA1' }));
    });
    const { outcome } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b' }));
    expect(outcome.count).toBeGreaterThan(0);
  });
});
