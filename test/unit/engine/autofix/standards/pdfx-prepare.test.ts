import { readFileSync } from 'node:fs';
import { PDFName, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { preparePdfx } from '../../../../../lambdas/engine/autofix/standards/pdfx-prepare';
import { readOutputIntents } from '../../../../../lambdas/engine/core/output-intents';
import { readPageBoxes } from '../../../../../lambdas/engine/core/page-boxes';
import { readXmp } from '../../../../../lambdas/engine/core/xmp/identification';
import { buildPdf } from '../../../../support/pdf-fixtures';
import { applyDirect, edit, expectSameRendering, FIXED_NOW, iccHeaderOnly, infoOf, preflightIds, reopen, runFixes, setInfo, textOf } from './fixtures';

const GWG = 'gwg-sheetfed-cmyk';

/** A file with a CMYK printer profile in a PDF/A output intent (a stand-in profile: the fix reads its header). */
async function withPrinterProfile(): Promise<Uint8Array> {
  return edit(await buildPdf({ pages: [{ font: 'embedded', colourSpace: 'cmyk' }] }), (doc) => {
    const ctx = doc.context;
    const profile = ctx.register(ctx.stream(iccHeaderOnly('prtr', 'CMYK'), { N: 4 }));
    doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj([ctx.obj({ Type: 'OutputIntent', S: 'GTS_PDFA1', OutputConditionIdentifier: PDFString.of('FOGRA51'), RegistryName: PDFString.of('http://www.color.org'), DestOutputProfile: profile })]));
  });
}

describe('pdfx.prepare', () => {
  it('names the printing condition in a PDF/X output intent, adds TrimBox, Trapped and ID, and resolves the GWG findings', async () => {
    const bytes = await buildPdf({ pages: 2, trailerId: false });
    const { path, outPath, result } = await runFixes(bytes, ['pdfx.prepare'], { profileId: GWG });
    expect(await preflightIds(path, GWG)).toEqual(expect.arrayContaining(['document.output-intent', 'boxes.trimbox-missing']));
    expect(result.applied).toEqual([{ fixId: 'pdfx.prepare', count: expect.any(Number), pages: [1, 2] }]);
    expect(result.runtimeParams.fixParams).toEqual({ 'pdfx.prepare': { version: 'PDF/X-4', condition: 'FOGRA39' } });
    const after = await preflightIds(outPath, GWG);
    expect(after).not.toContain('document.output-intent');
    expect(after).not.toContain('boxes.trimbox-missing');
    const doc = await reopen(outPath);
    expect(readOutputIntents(doc)).toEqual([expect.objectContaining({ subtype: 'GTS_PDFX', outputConditionIdentifier: 'FOGRA39', registryName: 'http://www.color.org', hasProfile: false })]);
    expect(doc.getPages().every((p) => readPageBoxes(doc.context, p.node).declared.TrimBox !== null)).toBe(true);
    expect(infoOf(doc).Trapped).toBe('False');
    expect(doc.context.trailerInfo.ID).toBeDefined();
    // Without an embedded printer profile the PDF/X-4 claim is not written.
    expect(readXmp(doc).pdfxVersion).toBeNull();
    expect(infoOf(doc).GTS_PDFXVersion).toBeUndefined();
    expect(doc.context.header.getVersionString()).toBe('1.6');
  });

  it('writes the PDF/X-4 claim when a printer profile is embedded, sharing it with the PDF/X intent', async () => {
    const { outcome, path } = await applyDirect(await withPrinterProfile(), (doc) => preparePdfx(doc, { version: 'PDF/X-4', condition: 'FOGRA39', order: null, now: () => FIXED_NOW }));
    expect(outcome.detail).not.toMatch(/claim was not written/);
    const doc = await reopen(path);
    const intents = readOutputIntents(doc);
    expect(intents.map((i) => [i.subtype, i.outputConditionIdentifier])).toEqual([['GTS_PDFA1', 'FOGRA51'], ['GTS_PDFX', 'FOGRA51']]);
    expect(intents[0]!.profileObjectNumber).toBe(intents[1]!.profileObjectNumber);
    expect(readXmp(doc).pdfxVersion).toBe('PDF/X-4');
    expect(infoOf(doc)).toMatchObject({ GTS_PDFXVersion: 'PDF/X-4', Trapped: 'False', CreationDate: 'D:20240506070809Z', ModDate: 'D:20240506070809Z' });
    expect(await preflightIds(path, GWG)).not.toContain('document.output-intent');
  });

  it('keeps an existing PDF/X intent and a known Trapped value, and uses the condition parameter for a new intent', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ trimBox: [10, 10, 500, 800] }], outputIntent: 'pdfx-srgb' }), (doc) => setInfo(doc, { Trapped: '/True' }));
    const existing = await runFixes(bytes, ['pdfx.prepare']);
    const doc = await reopen(existing.outPath);
    expect(readOutputIntents(doc).map((i) => i.outputConditionIdentifier)).toEqual(['sRGB IEC61966-2.1']);
    expect(infoOf(doc).Trapped).toBe('True');
    expect(readPageBoxes(doc.context, doc.getPage(0).node).declared.TrimBox).toEqual([10, 10, 500, 800]);
    const custom = await runFixes(await buildPdf({ pages: 1 }), ['pdfx.prepare'], { fixParams: { 'pdfx.prepare': { condition: 'GRACoL2013_CRPC6' } } });
    expect(readOutputIntents(await reopen(custom.outPath))[0]!.outputConditionIdentifier).toBe('GRACoL2013_CRPC6');
  });

  it('changes nothing on a second run', async () => {
    const first = await runFixes(await buildPdf({ pages: 1 }), ['pdfx.prepare']);
    const second = await runFixes(new Uint8Array(readFileSync(first.outPath)), ['pdfx.prepare']);
    expect(second.result).toMatchObject({ changed: false, applied: [], skipped: [{ fixId: 'pdfx.prepare', reason: expect.stringMatching(/claim was not written/) }] });
  });

  it('refuses versions it does not prepare', async () => {
    const { outcome } = await applyDirect(await buildPdf({ pages: 1 }), (doc) => preparePdfx(doc, { version: 'PDF/X-1a:2001', condition: 'FOGRA39', order: null }));
    expect(outcome).toMatchObject({ count: 0, skipReason: expect.stringMatching(/not a version this fix prepares/) });
  });

  it('never changes how a page looks or its text', async () => {
    const bytes = await buildPdf({ pages: [{ font: 'embedded', text: 'Print me', trimBox: [0, 0, 595.28, 841.89] }] });
    const { path, outPath } = await runFixes(bytes, ['pdfx.prepare']);
    expect(await textOf(outPath)).toContain('Print me');
    await expectSameRendering(path, outPath);
  });
});
