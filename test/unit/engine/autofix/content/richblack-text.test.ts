import { describe, expect, it } from 'vitest';
import { tempFiles } from '../../temp-files';
import { contentPdf, pageOps, pageTexts, previewPixels, preflightChecks, qpdfCheck, runFix, setResource, separation } from './fixtures';

const files = tempFiles('richblack-text');

const PAGE =
  'BT /F1 9 Tf 0.6 0.5 0.4 1 k 50 700 Td (Small rich) Tj ET ' + // qualifies
  'BT /F1 24 Tf 50 600 Td (Large rich) Tj ET ' + // same colour, too big
  '50 400 200 50 re f ' + // a rectangle in the same colour: untouched
  'BT /F1 9 Tf 0.3 0.3 0.3 0.8 k 50 300 Td (Dark grey mix) Tj ET ' + // K below 0.95: not rich black
  'BT /F1 9 Tf 0 0 0 1 k 50 200 Td (Plain K) Tj ET';

describe('color.richblack-small-text-to-k', () => {
  it('paints small rich-black text in 100 % K and sets the original colour again after it', async () => {
    const { outcome, doc } = await runFix('color.richblack-small-text-to-k', await contentPdf([{ content: PAGE }]));
    expect(outcome).toMatchObject({ count: 1, pages: [1], detail: '1 small text run(s) in rich black set in 100 % K' });
    const ops = pageOps(doc);
    expect(ops.slice(0, 9)).toEqual(['BT', '/F1 9 Tf', '0.6 0.5 0.4 1 k', '50 700 Td', '0 0 0 1 k', '(Small rich) Tj', '0.6 0.5 0.4 1 k', 'ET', 'BT']);
    expect(ops.filter((o) => o === '0 0 0 1 k')).toHaveLength(2); // the inserted one and "Plain K"'s own
  });

  it('handles stroked text, follows maxTextPt and minK, and leaves spot rich blacks', async () => {
    const doc = await contentPdf([{ content: 'BT /F1 9 Tf 1 Tr 0.5 0.5 0.5 1 K 50 700 Td (Outline) Tj ET /Gold cs 1 sc BT /F1 9 Tf 0 Tr 50 600 Td (Spot) Tj ET' }]);
    setResource(doc, 0, 'ColorSpace', 'Gold', separation(doc, 'Rich', [0.5, 0.5, 0.5, 1]));
    const { outcome, doc: out } = await runFix('color.richblack-small-text-to-k', doc);
    expect(outcome.count).toBe(1);
    expect(pageOps(out).slice(5, 8)).toEqual(['0 0 0 1 K', '(Outline) Tj', '0.5 0.5 0.5 1 K']);
    expect((await runFix('color.richblack-small-text-to-k', doc, { maxTextPt: 8 })).outcome.count).toBe(0);
    const grey = await contentPdf([{ content: 'BT /F1 9 Tf 0.3 0.3 0.3 0.8 k 50 300 Td (Dark) Tj ET' }]);
    expect((await runFix('color.richblack-small-text-to-k', grey, { minK: 0.8 })).outcome.count).toBe(1);
  });

  it('resolves text.rich-black, is idempotent, and keeps the file sound', async () => {
    const { before, after, outcome } = await runFix('color.richblack-small-text-to-k', await contentPdf([{ content: PAGE }]));
    expect(outcome.count).toBe(1);
    expect(await preflightChecks(before, files.dir)).toContain('text.rich-black');
    expect(await preflightChecks(after, files.dir)).not.toContain('text.rich-black');
    expect((await runFix('color.richblack-small-text-to-k', after)).outcome).toMatchObject({ count: 0, pages: [] });
    expect(await qpdfCheck(after, files.dir)).toBe(0);
    expect(await pageTexts(after)).toEqual(['Small richLarge richDark grey mixPlain K']);
    expect(await previewPixels(after, files.dir)).toHaveLength(1);
  });
});
