import { describe, expect, it } from 'vitest';
import { preflight } from '../../../../../lambdas/engine/preflight/index';
import { boxesOf, buildPages, ownRotate, render, runFix, textOf, type Rect } from './fixtures';

const A5: Rect = [0, 0, 419.53, 595.28];

describe('pages.pad-to-multiple', () => {
  it('appends blank pages with the last page\'s size and boxes until the count is a multiple of 4', async () => {
    const before = await buildPages([{}, {}, {}, {}, { mediaBox: [0, 0, 437.53, 613.28], trimBox: [9, 9, 428.53, 604.28], bleedBox: [0, 0, 437.53, 613.28], rotate: 90 }]);
    const { outcome, bytes, path } = await runFix('pages.pad-to-multiple', before);
    expect(outcome).toMatchObject({ count: 3, pages: [6, 7, 8] });
    const boxes = await boxesOf(bytes);
    expect(boxes).toHaveLength(8);
    for (const b of boxes.slice(5)) {
      expect(b.declared).toEqual(boxes[4]!.declared);
      expect(b.rotation).toBe(90);
    }
    expect((await ownRotate(bytes)).slice(4)).toEqual([90, 90, 90, 90]);
    // The original pages are untouched, the new ones blank; all of them render and the text is the same.
    const images = await render(bytes);
    expect(images).toHaveLength(8);
    const [w, h] = [images[5]!.width, images[5]!.height];
    expect([w, h]).toEqual([images[4]!.width, images[4]!.height]);
    expect(images[5]!.data.every((v) => v === 255)).toBe(true);
    expect((await textOf(bytes)).slice(0, 5)).toEqual(await textOf(before));
    expect((await textOf(bytes)).slice(5)).toEqual(['', '', '']);
    // The new pages are empty by design; preflight says so and nothing else changes about the boxes.
    const report = await preflight({ path, fileType: 'pdf', profileId: 'default', context: null });
    expect(report.report.findings.filter((f) => f.checkId === 'pages.empty').flatMap((f) => f.pages ?? [f.page])).toEqual(expect.arrayContaining([6]));
  });

  it('takes the multiple as a parameter', async () => {
    const before = await buildPages([{ mediaBox: A5 }, { mediaBox: A5 }, { mediaBox: A5 }]);
    expect((await runFix('pages.pad-to-multiple', before, { params: { multiple: 2 } })).outcome).toMatchObject({ count: 1, pages: [4] });
    expect((await runFix('pages.pad-to-multiple', before, { params: { multiple: 8 } })).outcome).toMatchObject({ count: 5, pages: [4, 5, 6, 7, 8] });
  });

  it('changes nothing when the count is already a multiple, so a second run finds nothing to do', async () => {
    const four = await buildPages([{}, {}, {}, {}]);
    const none = await runFix('pages.pad-to-multiple', four);
    expect(none.outcome).toMatchObject({ count: 0, pages: [] });
    expect(none.bytes).toBe(four);
    const once = await runFix('pages.pad-to-multiple', await buildPages([{}]));
    expect((await runFix('pages.pad-to-multiple', once.bytes)).outcome).toMatchObject({ count: 0, pages: [] });
  });
});
