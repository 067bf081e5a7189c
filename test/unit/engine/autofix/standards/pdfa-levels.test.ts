import { readFileSync } from 'node:fs';
import { PDFArray, PDFDict, PDFName, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { findFix, fixParams, fixParamsProblem, paramProblem } from '../../../../../lambdas/engine/profile-catalogue';
import { readXmp } from '../../../../../lambdas/engine/core/xmp/identification';
import { readXmpPacket } from '../../../../../lambdas/engine/core/xmp/xmp-model';
import { buildPdf, pdfaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { addAnnotations, applyDirect, edit, failedRules, files, FIXED_NOW, infoOf, reopen, runFixes, setInfo, textOf, xmpText } from './fixtures';

/** PDF/A-safe content (embedded font), with the structural defects pdfa.prepare removes and Info entries to carry over. */
const structural = async (extra: PdfSpec = {}) =>
  edit(await buildPdf({ pages: [{ font: 'embedded', javaScriptLink: 'app.alert(1)', uriLink: 'https://example.com/' }], documentJavaScript: 'x()', trailerId: false, ...extra }), (doc) =>
    setInfo(doc, { Title: 'Annual report', Author: 'Jane Doe', Creator: 'Writer' }),
  );
const prepare = (bytes: Uint8Array, part: number, conformance: string) => applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance, now: () => FIXED_NOW }));
const pdfaid = async (path: string) =>
  Object.fromEntries(readXmpPacket(xmpText(await reopen(path))).properties.filter((p) => p.prefix === 'pdfaid').map((p) => [p.name, p.node.kind === 'simple' ? p.node.value : '?']));

describe('pdfa.prepare: conformance levels a and u', () => {
  it('writes the level it is asked for; the identification and structure are those of level b', async () => {
    for (const [part, level] of [[1, 'a'], [2, 'a'], [2, 'u'], [3, 'a'], [3, 'u']] as const) {
      const { path } = await prepare(await structural(), part, level);
      expect(await pdfaid(path), `${part}${level}`).toEqual({ part: String(part), conformance: level.toUpperCase() });
      // Only content requirements of the level remain (a: tagging); nothing of the file's declarations or structure.
      const failed = await failedRules(path, `${part}${level}` as never);
      expect(failed, `${part}${level}`).toEqual(level === 'a' ? ['pdfa.tagged.marked', 'pdfa.tagged.structure'] : []);
    }
  });

  it('makes a tagged file PDF/A-2a compliant', async () => {
    const bytes = await buildPdf(pdfaSpec(2, 'a', { pdfa: undefined, outputIntent: undefined, documentJavaScript: 'x()' }));
    expect(await failedRules(files.write(bytes, 'pdf'), '2a')).toEqual(expect.arrayContaining(['pdfa.metadata.identification', 'pdfa.actions.types', 'pdfa.colour.rgb']));
    const { outPath } = await runFixes(bytes, ['pdfa.prepare'], { fixParams: { 'pdfa.prepare': { part: 2, conformance: 'a' } } });
    expect(await failedRules(outPath, '2a')).toEqual([]);
    expect(readXmp(await reopen(outPath)).pdfa).toMatchObject({ part: { value: '2' }, conformance: { value: 'A' } });
  });

  it('replaces a claim of another level or part, and its stale identification properties', async () => {
    const bytes = await buildPdf(pdfaSpec(4, 'f', { documentJavaScript: 'x()' }));
    const { path } = await prepare(bytes, 2, 'u');
    expect(await pdfaid(path)).toEqual({ part: '2', conformance: 'U' });
    expect(await failedRules(path, '2u')).toEqual([]);
  });
});

describe('pdfa.prepare: PDF/A-4', () => {
  it('writes %PDF-2.0, pdfaid:part 4 and rev 2020 without a conformance, moves Info into XMP and removes it', async () => {
    const bytes = await structural();
    expect(await failedRules(files.write(bytes, 'pdf'), '4')).toEqual(expect.arrayContaining(['pdfa.file.header', 'pdfa.metadata.present', 'pdfa.trailer.info', 'pdfa.trailer.id']));
    const { outcome, path, bytes: out } = await prepare(bytes, 4, '');
    expect(outcome.detail).toMatch(/^PDF\/A-4 declarations and structure: header version;/);
    expect(outcome.detail).toContain('Info dictionary removed (its entries are in the XMP)');
    expect(new TextDecoder().decode(out.subarray(0, 8))).toBe('%PDF-2.0');
    expect(await pdfaid(path)).toEqual({ part: '4', rev: '2020' });
    const doc = await reopen(path);
    expect(doc.context.trailerInfo.Info).toBeUndefined();
    expect(readXmp(doc)).toMatchObject({ dcTitle: 'Annual report' });
    expect(xmpText(doc)).toContain('<rdf:li>Jane Doe</rdf:li>');
    expect(xmpText(doc)).toContain('<xmp:CreatorTool>Writer</xmp:CreatorTool>');
    expect(await failedRules(path, '4')).toEqual([]);
    expect(await textOf(path)).toContain('Page 1');
  });

  it('writes conformance E or F for PDF/A-4e and -4f (4f then still needs an embedded file: content, reported)', async () => {
    const e = await prepare(await structural(), 4, 'e');
    expect(await pdfaid(e.path)).toEqual({ part: '4', conformance: 'E', rev: '2020' });
    expect(await failedRules(e.path, '4e')).toEqual([]);
    const f = await prepare(await structural(), 4, 'F');
    expect(await pdfaid(f.path)).toEqual({ part: '4', conformance: 'F', rev: '2020' });
    expect(await failedRules(f.path, '4f')).toEqual(['pdfa.embedded-files.required']);
  });

  it('keeps Info with only ModDate when the catalog has PieceInfo', async () => {
    const bytes = await edit(await structural(), (doc) => doc.catalog.set(PDFName.of('PieceInfo'), doc.context.obj({})));
    const { outcome, path } = await prepare(bytes, 4, '');
    expect(outcome.detail).toContain('Info dictionary reduced to ModDate');
    expect(infoOf(await reopen(path))).toEqual({ ModDate: 'D:20240506070809Z' });
    expect(await failedRules(path, '4')).toEqual([]);
  });

  it('keeps additional actions of annotations on the triggers PDF/A-4 allows and removes the others', async () => {
    const bytes = await edit(await buildPdf({ pages: [{ font: 'embedded' }] }), (doc) => {
      const ctx = doc.context;
      const go = ctx.obj({ S: 'URI', URI: PDFString.of('https://example.com/') });
      addAnnotations(doc, [{ Subtype: 'Link', Rect: [50, 50, 150, 80], Border: [0, 0, 0], AA: { E: go, PV: go, PO: go } }]);
    });
    expect(await failedRules(files.write(bytes, 'pdf'), '4')).toContain('pdfa.actions.additional');
    const { outcome, path } = await prepare(bytes, 4, '');
    expect(outcome.detail).toContain('annotation additional actions on PV, PO removed');
    const link = (await reopen(path)).getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).lookup(0, PDFDict);
    expect(link.lookup(PDFName.of('AA'), PDFDict).keys().map((k) => k.decodeText())).toEqual(['E']);
    expect(await failedRules(path, '4')).toEqual([]);
  });

  it('removes a catalog Version of PDF 1.x, and changes nothing on a second run', async () => {
    const bytes = await edit(await structural(), (doc) => doc.catalog.set(PDFName.of('Version'), PDFName.of('1.7')));
    const first = await runFixes(bytes, ['pdfa.prepare'], { fixParams: { 'pdfa.prepare': { part: 4, conformance: '' } } });
    expect(await failedRules(first.outPath, '4')).toEqual([]);
    expect((await reopen(first.outPath)).catalog.has(PDFName.of('Version'))).toBe(false);
    const second = await runFixes(new Uint8Array(readFileSync(first.outPath)), ['pdfa.prepare'], { fixParams: { 'pdfa.prepare': { part: 4, conformance: '' } } });
    expect(second.result).toMatchObject({ changed: false, skipped: [{ fixId: 'pdfa.prepare' }] });
  });
});

describe('pdfa.prepare parameters', () => {
  it('takes parts 1 to 4 and the levels of any part, each on its own', () => {
    const info = findFix('pdfa.prepare')!;
    const part = info.params.find((p) => p.name === 'part')!;
    const conformance = info.params.find((p) => p.name === 'conformance')!;
    expect([1, 2, 3, 4].map((v) => paramProblem(part, v))).toEqual([null, null, null, null]);
    expect(paramProblem(part, 5)).toMatch(/between 1 and 4/);
    expect(['a', 'b', 'u', 'e', 'f', ''].map((v) => paramProblem(conformance, v))).toEqual([null, null, null, null, null, null]);
    expect(paramProblem(conformance, 'x')).toMatch(/must be one of/);
    expect(conformance.default).toBe('b');
  });

  it('refuses a level the part does not have, and defaults the level to plain PDF/A-4 for part 4', () => {
    const info = findFix('pdfa.prepare')!;
    expect(fixParamsProblem(info, { part: 1, conformance: 'u' })).toMatch(/PDF\/A-1U is not a level .* PDF\/A-1 has the levels a, b\./);
    expect(fixParamsProblem(info, { part: 4, conformance: 'b' })).toMatch(/PDF\/A-4B is not a level/);
    expect(fixParamsProblem(info, { part: 3, conformance: 'e' })).toMatch(/PDF\/A-3E is not a level/);
    expect(fixParamsProblem(info, { part: 2, conformance: 'U' })).toBeNull();
    expect(fixParams(info, { part: 4 })).toEqual({ part: 4, conformance: '' });
    expect(fixParamsProblem(info, { part: 4 })).toBeNull();
    expect(fixParams(info, {})).toEqual({ part: 2, conformance: 'b' });
  });
});
