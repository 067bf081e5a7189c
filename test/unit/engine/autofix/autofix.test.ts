import { readFileSync, statSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../../../lambdas/domain/model';
import { autofix } from '../../../../lambdas/engine/autofix/index';
import { inventoryActions } from '../../../../lambdas/engine/core/actions';
import { openPdfFile } from '../../../../lambdas/engine/core/load-pdf';
import { readPageBoxes } from '../../../../lambdas/engine/core/page-boxes';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import { compareTrimImages, trimImages } from '../../../support/appearance-compare';
import { A4, buildPdf, MM, type PdfSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('autofix');

async function fix(spec: PdfSpec, opts: { items?: string[] | null; recommended?: string[] | null; context?: OrderContext | null; fixParams?: Record<string, unknown>; maxRounds?: number } = {}) {
  const path = files.write(await buildPdf(spec), 'pdf');
  const outPath = `${path}.fixed.pdf`;
  const before = readFileSync(path);
  const result = await autofix({ path, outPath, items: opts.items ?? null, recommended: opts.recommended ?? null, profileId: 'default', context: opts.context ?? null, fixParams: opts.fixParams ?? null, maxRounds: opts.maxRounds });
  expect(readFileSync(path).equals(before)).toBe(true); // the input is never modified
  return { path, outPath, result };
}

async function boxesOf(path: string) {
  const { doc } = await openPdfFile(path);
  return doc.getPages().map((p) => readPageBoxes(doc.context, p.node));
}

describe('autofix', () => {
  describe('boxes.normalize', () => {
    it('adds a TrimBox from the MediaBox and leaves the bleed undeclared without context', async () => {
      const { outPath, result } = await fix({ pages: 2 }, { items: ['boxes.normalize'] });
      expect(result).toMatchObject({ changed: true, applied: [{ fixId: 'boxes.normalize', count: 2, pages: [1, 2] }], skipped: [] });
      const boxes = await boxesOf(outPath);
      expect(boxes.map((b) => b.declared.TrimBox)).toEqual([[0, 0, 595.28, 841.89], [0, 0, 595.28, 841.89]]);
      expect(boxes[0]!.declared.BleedBox).toBeNull();
    });

    it('prefers an explicit CropBox, then the ArtBox, for the TrimBox, and opens the CropBox to the MediaBox', async () => {
      const { outPath } = await fix({ pages: [{ cropBox: [20, 20, 500, 800] }, { artBox: [30, 30, 400, 400] }] }, { items: ['boxes.normalize'] });
      const [first, second] = await boxesOf(outPath);
      expect(first!.declared.TrimBox).toEqual([20, 20, 500, 800]);
      expect(first!.declared.CropBox).toEqual([0, 0, 595.28, 841.89]);
      expect(second!.declared.TrimBox).toEqual([30, 30, 400, 400]);
    });

    it('does not take an ArtBox that reaches beyond the page for the TrimBox: clipped, it would cut off what prints (issue6081)', async () => {
      // Wider than the page, and lower than the "Page 1" text at the top left.
      const { path, outPath } = await fix({ pages: [{ artBox: [41.32, 35.88, 756, 576.13] }] }, { items: ['boxes.normalize'] });
      const [boxes] = await boxesOf(outPath);
      expect(boxes!.declared.TrimBox).toEqual([0, 0, 595.28, 841.89]);
      const [before, after] = [await trimImages(path), await trimImages(outPath)];
      expect(compareTrimImages(before, after)).toEqual([{ page: 1, rmse: 0, changedShare: 0, sizeChanged: false }]);
    });

    it('centres the ordered artwork size and grows the BleedBox by the ordered bleed, within the MediaBox', async () => {
      const media: [number, number] = [A4[0] + 10 * MM, A4[1] + 4 * MM];
      const { outPath } = await fix({ pages: [{ size: media }] }, { items: ['boxes.normalize'], context: { artworkSize: { width_mm: 297, height_mm: 210 }, bleed: { required_mm: 3 } } });
      const [b] = await boxesOf(outPath);
      const trim = b!.declared.TrimBox!;
      expect(trim[2] - trim[0]).toBeCloseTo(210 * MM, 1); // portrait page: the artwork turns portrait
      expect(trim[0]).toBeCloseTo(5 * MM, 1);
      expect(trim[1]).toBeCloseTo(2 * MM, 1);
      const bleed = b!.declared.BleedBox!;
      expect(bleed[0]).toBeCloseTo(2 * MM, 1); // 3 mm to the left
      expect(bleed[1]).toBeCloseTo(0, 1); // only 2 mm room below: clipped to the MediaBox
      const report = await preflight({ path: outPath, fileType: 'pdf', profileId: 'default', context: { artworkSize: { width_mm: 210, height_mm: 297 } } });
      expect(report.report.findings.map((f) => f.checkId)).not.toContain('boxes.trimbox-missing');
      expect(report.report.findings.map((f) => f.checkId)).not.toContain('artwork.size-mismatch');
    });

    it('clips a BleedBox that reaches beyond the MediaBox', async () => {
      const { outPath, result } = await fix({ pages: [{ size: [300, 300], trimBox: [10, 10, 290, 290], bleedBox: [-9, -9, 309, 309] }] }, { items: ['boxes.normalize'] });
      expect(result.applied).toEqual([{ fixId: 'boxes.normalize', count: 1, pages: [1] }]);
      expect((await boxesOf(outPath))[0]!.declared.BleedBox).toEqual([0, 0, 300, 300]);
    });

    it('changes nothing on pages that already state their boxes', async () => {
      const { outPath, result } = await fix({ pages: [{ trimBox: [10, 10, 500, 800], bleedBox: [0, 0, 510, 810] }] }, { items: ['boxes.normalize'] });
      expect(result).toMatchObject({ changed: false, applied: [], skipped: [{ fixId: 'boxes.normalize', reason: expect.stringMatching(/Nothing to change/) }] });
      expect(existsSync(outPath)).toBe(false);
    });
  });

  describe('actions.remove', () => {
    it('removes JavaScript and launch actions everywhere and keeps other actions', async () => {
      const spec: PdfSpec = { pages: [{ launchLink: true, javaScriptLink: 'x()', pageOpenJavaScript: 'y()' }, {}], documentJavaScript: 'app.alert(1)', openAction: 'javascript' };
      const { outPath, result } = await fix(spec, { items: ['actions.remove'] });
      expect(result.applied).toEqual([{ fixId: 'actions.remove', count: 5, pages: [1] }]);
      const { doc } = await openPdfFile(outPath);
      expect(inventoryActions(doc).sites.filter((s) => s.type === 'JavaScript' || s.type === 'Launch')).toEqual([]);
      expect(doc.catalog.has(PDFName.of('OpenAction'))).toBe(false);
      expect((doc.catalog.lookup(PDFName.of('Names')) as PDFDict | undefined)?.has(PDFName.of('JavaScript')) ?? false).toBe(false);
      // The link annotations themselves stay; only their actions go.
      expect(doc.getPage(0).node.lookup(PDFName.of('Annots'))).toBeDefined();
      const after = await preflight({ path: outPath, fileType: 'pdf', profileId: 'default', context: null });
      expect(after.report.findings.map((f) => f.checkId)).not.toContain('document.javascript');
    });

    it('removes web links only when asked to (uri: true), and says which parameters it applied', async () => {
      const spec: PdfSpec = { pages: [{ uriLink: 'https://example.com/', javaScriptLink: 'x()' }] };
      const kept = await fix(spec, { items: ['actions.remove'] });
      expect(inventoryActions((await openPdfFile(kept.outPath)).doc).sites.map((s) => s.type)).toEqual(['URI']);
      expect(kept.result.runtimeParams.fixParams).toEqual({ 'actions.remove': { uri: false } });
      const gone = await fix(spec, { items: ['actions.remove'], fixParams: { 'actions.remove': { uri: true } } });
      expect(gone.result.applied).toEqual([{ fixId: 'actions.remove', count: 2, pages: [1] }]);
      expect(inventoryActions((await openPdfFile(gone.outPath)).doc).sites).toEqual([]);
      expect(gone.result.runtimeParams.fixParams).toEqual({ 'actions.remove': { uri: true } });
    });

    it('keeps a harmless GoTo open action', async () => {
      const { result } = await fix({ pages: 1, openAction: 'goto' }, { items: ['actions.remove'] });
      expect(result.changed).toBe(false);
    });
  });

  it('takes explicit items over recommended fixes over the profile defaults (in the first round)', async () => {
    const spec: PdfSpec = { pages: 1, documentJavaScript: 'x' };
    expect((await fix(spec, { items: ['actions.remove'], recommended: ['boxes.normalize'] })).result.applied.map((a) => a.fixId)).toEqual(['actions.remove']);
    expect((await fix(spec, { recommended: ['boxes.normalize'], maxRounds: 1 })).result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize']);
    const defaults = await fix(spec, { maxRounds: 1 });
    expect(defaults.result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize', 'actions.remove']);
    expect(defaults.result.runtimeParams).toMatchObject({ profileId: 'default', fixes: ['boxes.normalize', 'actions.remove'], fixesFrom: 'profile' });
    expect((await fix(spec, { recommended: [] })).result).toMatchObject({ changed: false, applied: [], skipped: [] });
  });

  it('leaves nothing it removed in the file: no unreferenced object survives the save', async () => {
    const built = await PDFDocument.load(await buildPdf({ pages: 1 }));
    await built.attach(Buffer.from('confidential price list'), 'secret-marker-4711.txt', { mimeType: 'text/plain' });
    const path = files.write(await built.save({ useObjectStreams: false }), 'pdf');
    expect(readFileSync(path).toString('latin1')).toContain('secret-marker-4711');
    const outPath = `${path}.fixed.pdf`;
    const result = await autofix({ path, outPath, items: ['attachments.remove'], recommended: null, profileId: 'default', context: null });
    expect(result.changed).toBe(true);
    const text = readFileSync(outPath).toString('latin1');
    expect(text).not.toContain('secret-marker-4711');
    // The trailer counts the objects that are left: /Size is one more than the highest object number.
    const highest = Math.max(...[...text.matchAll(/(\d+) 0 obj/g)].map((m) => Number(m[1])));
    expect(Number([...text.matchAll(/\/Size (\d+)/g)].at(-1)![1])).toBe(highest + 1);
    // The file still has everything it shows.
    const { doc } = await openPdfFile(outPath);
    expect(doc.getPageCount()).toBe(1);
  });

  it('applies fixes in the order of application, whatever order they were named in', async () => {
    const { result } = await fix({ pages: 1, documentJavaScript: 'x' }, { items: ['actions.remove', 'boxes.normalize'] });
    expect(result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize', 'actions.remove']);
    expect(result.runtimeParams.fixes).toEqual(['boxes.normalize', 'actions.remove']);
  });

  it('skips unknown fix ids with a reason', async () => {
    const { result } = await fix({ pages: 1 }, { items: ['colour.convert-cmyk', 'boxes.normalize'] });
    expect(result.skipped).toEqual([{ fixId: 'colour.convert-cmyk', reason: 'There is no fix "colour.convert-cmyk"; GET /profiles lists the available fixes.' }]);
    expect(result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize']);
  });

  it('writes an unencrypted, loadable file when the input had only an owner password', async () => {
    const { outPath, result } = await fix({ pages: 1, encrypt: { ownerPassword: 'owner' } }, { items: ['boxes.normalize'] });
    expect(result.runtimeParams.encryptionRemoved).toBe(true);
    const reopened = await openPdfFile(outPath);
    expect(reopened.encryption).toBeNull();
    expect(statSync(outPath).size).toBeGreaterThan(0);
  });
});
