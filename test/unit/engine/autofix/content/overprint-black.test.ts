import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import { tempFiles } from '../../temp-files';
import { contentPdf, differingShare, form, formOps, pageOps, pageTexts, previewPixels, qpdfCheck, runFix, setResource } from './fixtures';

const files = tempFiles('overprint-black');

/** The overprint entries of a page's ExtGState resource. */
function extGState(doc: Awaited<ReturnType<typeof runFix>>['doc'], key: string, pageIndex = 0): Record<string, unknown> {
  const gs = doc.getPage(pageIndex).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('ExtGState'), PDFDict).lookup(PDFName.of(key), PDFDict);
  const out: Record<string, unknown> = {};
  for (const k of ['OP', 'op', 'OPM']) out[k] = String(gs.get(PDFName.of(k)));
  return out;
}

const PAGE =
  'BT /F1 9 Tf 0 0 0 1 k 50 700 Td (Small black) Tj ET ' + // qualifies
  'BT /F1 24 Tf 0 0 0 1 k 50 600 Td (Large black) Tj ET ' + // too big
  'BT /F1 9 Tf 0.5 0.4 0.4 1 k 50 500 Td (Rich black) Tj ET ' + // not 100 % K only
  '0 0 0 1 K 0.5 w 50 400 m 300 400 l S ' + // thin black line: qualifies
  '4 w 50 300 m 300 300 l S ' + // thick: no
  '0.5 w 50 200 m 300 200 l 300 250 l b'; // fills too: no

describe('overprint.black-text', () => {
  it('sets overprint around small K-only text and before thin K-only strokes, restoring the state after', async () => {
    const { outcome, doc } = await runFix('overprint.black-text', await contentPdf([{ content: PAGE }]));
    expect(outcome).toMatchObject({ count: 2, pages: [1] });
    const ops = pageOps(doc);
    expect(ops.slice(0, 9)).toEqual(['BT', '/F1 9 Tf', '0 0 0 1 k', '50 700 Td', '/PLOverprint111 gs', '(Small black) Tj', '/PLOverprint000 gs', 'ET', 'BT']);
    const line = ops.indexOf('0.5 w');
    expect(ops.slice(line, line + 5)).toEqual(['0.5 w', '/PLOverprint111 gs', '50 400 m', '300 400 l', 'S']);
    expect(ops[line + 5]).toBe('/PLOverprint000 gs');
    expect(ops.filter((o) => o.endsWith(' gs'))).toHaveLength(4);
    expect(extGState(doc, 'PLOverprint111')).toEqual({ OP: 'true', op: 'true', OPM: '1' });
    expect(extGState(doc, 'PLOverprint000')).toEqual({ OP: 'false', op: 'false', OPM: '0' });
  });

  it('measures size and width as drawn, and follows maxTextPt / maxLinePt', async () => {
    // 24 pt text scaled by 0.25 is 6 pt; a 4 pt line scaled by 0.25 is 1 pt.
    const doc = await contentPdf([{ content: 'q 0.25 0 0 0.25 0 0 cm BT /F1 24 Tf 0 0 0 1 k 50 700 Td (Scaled) Tj ET 0 0 0 1 K 4 w 50 400 m 300 400 l S Q' }]);
    expect((await runFix('overprint.black-text', doc)).outcome.count).toBe(2);
    expect((await runFix('overprint.black-text', doc, { maxTextPt: 5, maxLinePt: 0.5 })).outcome.count).toBe(0);
  });

  it('restores whatever overprint state was in effect, and leaves objects already overprinting', async () => {
    const doc = await contentPdf([
      { content: '/On gs BT /F1 9 Tf 0 0 0 1 k 50 700 Td (Already) Tj ET /Half gs BT /F1 9 Tf 0 0 0 1 k 50 600 Td (Half) Tj ET', resources: { ExtGState: { On: { OP: true, op: true, OPM: 1 }, Half: { OP: true, op: false, OPM: 0 } } } },
    ]);
    const { outcome, doc: out } = await runFix('overprint.black-text', doc);
    expect(outcome.count).toBe(1);
    const ops = pageOps(out);
    expect(ops.slice(ops.indexOf('(Half) Tj') - 1, ops.indexOf('(Half) Tj') + 2)).toEqual(['/PLOverprint111 gs', '(Half) Tj', '/PLOverprint100 gs']);
    expect(extGState(out, 'PLOverprint100')).toEqual({ OP: 'true', op: 'false', OPM: '0' });
  });

  it('edits forms with their own resources, leaves those without, and skips a file with nothing to change', async () => {
    const doc = await contentPdf([{ content: '/Fm0 Do /Fm1 Do' }]);
    setResource(doc, 0, 'XObject', 'Fm0', form(doc, 'BT /F1 8 Tf 0 0 0 1 k 50 100 Td (In form) Tj ET', { resources: { Font: doc.getPage(0).node.lookup(PDFName.of('Resources'), PDFDict).get(PDFName.of('Font')) } }));
    setResource(doc, 0, 'XObject', 'Fm1', form(doc, 'BT /F1 8 Tf 0 0 0 1 k 50 200 Td (Inherits) Tj ET', { resources: null }));
    const { outcome, doc: out } = await runFix('overprint.black-text', doc);
    expect(outcome.count).toBe(1);
    expect(outcome.detail).toContain('1 object(s) in forms without their own resources left');
    expect(formOps(out, 0, 'Fm0')).toContain('/PLOverprint111 gs');
    expect(formOps(out, 0, 'Fm1')).not.toContain('/PLOverprint111 gs');
    const none = await runFix('overprint.black-text', await contentPdf([{ content: 'BT /F1 30 Tf 0 0 0 1 k 50 700 Td (Big) Tj ET' }]));
    expect(none.outcome).toMatchObject({ count: 0, pages: [] });
    expect(none.outcome.skipReason).toBeUndefined();
  });

  it('is idempotent, renders the same, passes qpdf and keeps the text', async () => {
    const first = await runFix('overprint.black-text', await contentPdf([{ content: `0.2 0.9 0 0 k 40 380 400 360 re f ${PAGE}` }]));
    expect(first.outcome.count).toBe(2);
    expect((await runFix('overprint.black-text', first.after)).outcome).toMatchObject({ count: 0, pages: [] });
    expect(await qpdfCheck(first.after, files.dir)).toBe(0);
    expect(await pageTexts(first.after)).toEqual(['Small blackLarge blackRich black']);
    const [a] = await previewPixels(first.before, files.dir);
    const [b] = await previewPixels(first.after, files.dir);
    expect(differingShare(a!, b!, 2)).toBe(0);
  });
});
