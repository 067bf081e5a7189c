import { describe, expect, it } from 'vitest';
import { tempFiles } from '../../temp-files';
import { contentPdf, differingShare, pageOps, pageTexts, previewPixels, preflightChecks, qpdfCheck, runFix } from './fixtures';

const files = tempFiles('white-knockout');

const OVERPRINT = { ExtGState: { Op: { Type: 'ExtGState', OP: true, op: true, OPM: 1 } } };
const PAGE =
  '0.2 0.9 0 0 k 40 500 400 300 re f /Op gs ' +
  '0 0 0 0 k 60 700 200 50 re f ' + // white fill, overprinting: changed
  'BT /F1 18 Tf 1 g 60 600 Td (White text) Tj ET ' + // white gray text: changed
  '0 0 0 1 k 60 520 200 30 re f'; // black overprinting: fine

describe('overprint.white-knockout', () => {
  it('turns overprint off around white fills and text that overprint, and restores it after', async () => {
    const { outcome, doc } = await runFix('overprint.white-knockout', await contentPdf([{ content: PAGE, resources: OVERPRINT }]));
    expect(outcome).toMatchObject({ count: 2, pages: [1], detail: '2 white object(s) set to knock out instead of overprinting' });
    const ops = pageOps(doc);
    const rect = ops.indexOf('60 700 200 50 re');
    expect(ops.slice(rect - 1, rect + 3)).toEqual(['/PLOverprint101 gs', '60 700 200 50 re', 'f', '/PLOverprint111 gs']);
    const text = ops.indexOf('(White text) Tj');
    expect(ops.slice(text - 1, text + 2)).toEqual(['/PLOverprint101 gs', '(White text) Tj', '/PLOverprint111 gs']);
    expect(ops.filter((o) => o.endsWith(' gs'))).toHaveLength(5);
  });

  it('skips files without white overprint, and white that knocks out already', async () => {
    const plain = await runFix('overprint.white-knockout', await contentPdf([{ content: '0 0 0 0 k 60 700 200 50 re f /Op gs 0 0 0 1 k 60 600 20 20 re f', resources: OVERPRINT }]));
    expect(plain.outcome).toMatchObject({ count: 0, pages: [] });
    expect(plain.outcome.skipReason).toBeUndefined();
  });

  it('resolves overprint.white, is idempotent, renders the same and keeps the file sound', async () => {
    const { before, after } = await runFix('overprint.white-knockout', await contentPdf([{ content: PAGE, resources: OVERPRINT }]));
    expect(await preflightChecks(before, files.dir)).toContain('overprint.white');
    expect(await preflightChecks(after, files.dir)).not.toContain('overprint.white');
    expect((await runFix('overprint.white-knockout', after)).outcome).toMatchObject({ count: 0, pages: [] });
    expect(await qpdfCheck(after, files.dir)).toBe(0);
    expect(await pageTexts(after)).toEqual(['White text']);
    const [a] = await previewPixels(before, files.dir);
    const [b] = await previewPixels(after, files.dir);
    expect(differingShare(a!, b!, 2)).toBe(0);
  });
});
