import { readFileSync } from 'node:fs';
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { srgbProfile } from '../../../../../lambdas/engine/autofix/standards/srgb-profile';
import { parseIccHeader, readOutputIntents } from '../../../../../lambdas/engine/core/output-intents';
import { readXmp } from '../../../../../lambdas/engine/core/xmp';
import { buildPdf, type PdfSpec } from '../../../../support/pdf-fixtures';
import { applyDirect, compliant, edit, expectSameRendering, failedRules, files, FIXED_NOW, preflightIds, reopen, runFixes, setAnnotationFlags, textOf } from './fixtures';

/** A file whose content is PDF/A-safe (embedded font) but whose declarations and structure are not. */
const structural = (extra: PdfSpec = {}): PdfSpec => ({
  pages: [{ font: 'embedded', javaScriptLink: 'app.alert(1)', launchLink: true, pageOpenJavaScript: 'x()', uriLink: 'https://example.com/' }],
  documentJavaScript: 'app.alert(2)',
  openAction: 'javascript',
  trailerId: false,
  ...extra,
});

const prepare = (part: number) => ({ fixParams: { 'pdfa.prepare': { part } } });

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

  it('keeps an output intent whose profile breaks the part rather than replacing the declared condition', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }], outputIntent: 'pdfa-srgb' }), (doc) => {
      const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
      const profile = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile')) as PDFRef) as PDFStream;
      profile.dict.set(PDFName.of('Filter'), PDFName.of('Bogus')); // unreadable
    });
    const { outPath } = await runFixes(bytes, ['pdfa.prepare'], prepare(2));
    expect(readOutputIntents(await reopen(outPath))).toHaveLength(1);
    expect(await failedRules(outPath, '2b')).toContain('pdfa.output-intent.profile');
  });

  it('changes nothing on a second run and reports a compliant file skipped', async () => {
    const first = await runFixes(await buildPdf(structural()), ['pdfa.prepare'], prepare(2));
    const second = await runFixes(new Uint8Array(readFileSync(first.outPath)), ['pdfa.prepare'], prepare(2));
    expect(second.result).toMatchObject({ changed: false, applied: [], skipped: [{ fixId: 'pdfa.prepare' }] });
  });

  it('refuses levels it does not prepare, without touching the file', async () => {
    const { outcome } = await applyDirect(await buildPdf({ pages: 1 }), (doc) => preparePdfa(doc, { part: 4, conformance: 'b' }));
    expect(outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/PDF\/A-4b is not a level/) });
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
