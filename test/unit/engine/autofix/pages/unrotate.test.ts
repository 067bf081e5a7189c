import { describe, expect, it } from 'vitest';
import { annotationGeometry, boxesOf, buildPages, differingPixels, ownRotate, picture, render, runFix, textOf } from './fixtures';

/** Renders before and after and expects the same picture (size and pixels). */
async function expectSameLook(before: Uint8Array, after: Uint8Array) {
  const a = await render(before);
  const b = await render(after);
  expect(b.map((r) => [r.width, r.height])).toEqual(a.map((r) => [r.width, r.height]));
  a.forEach((img, i) => expect(differingPixels(img, b[i]!)).toBeLessThan(img.width * img.height * 0.002));
}

describe('pages.unrotate', () => {
  it('bakes 90, 180 and 270 degrees into the page: /Rotate goes, the page looks the same, its boxes turn', async () => {
    const before = await buildPages([
      { rotate: 90, trimBox: [10, 20, 585, 832], bleedBox: [5, 10, 590, 837] },
      { rotate: 180 },
      { rotate: 270, cropBox: [0, 0, 500, 800] },
      {},
    ]);
    const { outcome, bytes } = await runFix('pages.unrotate', before);
    expect(outcome).toMatchObject({ count: 3, pages: [1, 2, 3] });
    expect(await ownRotate(bytes)).toEqual([null, null, null, null]);
    const boxes = await boxesOf(bytes);
    expect(boxes.map((b) => b.rotation)).toEqual([0, 0, 0, 0]);
    // 90° clockwise: the portrait page becomes a landscape user space starting at 0 0.
    expect(boxes[0]!.declared.MediaBox).toEqual([0, 0, 842, 595]);
    // The trim's 20 pt from the bottom becomes 20 pt from the left; its 10 pt from the left, 10 pt from the top.
    expect(boxes[0]!.declared.TrimBox).toEqual([20, 10, 832, 585]);
    expect(boxes[0]!.declared.BleedBox).toEqual([10, 5, 837, 590]);
    expect(boxes[1]!.declared.MediaBox).toEqual([0, 0, 595, 842]);
    expect(boxes[2]!.declared.MediaBox).toEqual([0, 0, 842, 595]);
    expect(boxes[2]!.declared.CropBox).toEqual([42, 0, 842, 500]);
    expect(boxes[3]!.declared.MediaBox).toEqual([0, 0, 595, 842]); // the unturned page is left alone
    await expectSameLook(before, bytes);
  });

  it('normalises negative and oversized values, and inherited rotation, as viewers read them', async () => {
    const before = await buildPages([{ rotate: -90 }, { rotate: 450 }, {}], { parentRotate: 180 });
    const { outcome, bytes } = await runFix('pages.unrotate', before);
    expect(outcome).toMatchObject({ count: 3, pages: [1, 2, 3] });
    // Page 3 inherited 180 from the page tree: it states 0 so the inheritance no longer reaches it.
    expect(await ownRotate(bytes)).toEqual([0, 0, 0]);
    expect((await boxesOf(bytes)).map((b) => [b.rotation, b.media])).toEqual([
      [0, [0, 0, 842, 595]],
      [0, [0, 0, 842, 595]],
      [0, [0, 0, 595, 842]],
    ]);
    await expectSameLook(before, bytes);
  });

  it('removes an invalid rotation (not a multiple of 90, or not a number) without turning the page, as pdf.js shows it', async () => {
    const before = await buildPages([{ rotate: 45 }, { rotate: 'Ninety' }, { rotate: 0 }]);
    const { outcome, bytes } = await runFix('pages.unrotate', before);
    expect(outcome).toMatchObject({ count: 2, pages: [1, 2] });
    expect(await ownRotate(bytes)).toEqual([null, null, 0]);
    expect((await boxesOf(bytes)).map((b) => b.media)).toEqual([[0, 0, 595, 842], [0, 0, 595, 842], [0, 0, 595, 842]]);
    await expectSameLook(before, bytes);
  });

  it('handles a MediaBox away from the origin and one inherited from the page tree', async () => {
    const offset: [number, number, number, number] = [100, -50, 500, 550];
    const before = await buildPages([{ rotate: 90, mediaBox: offset, content: picture(offset) }, { rotate: 270 }], { parentMediaBox: [0, 0, 400, 300] });
    const { bytes } = await runFix('pages.unrotate', before);
    const boxes = await boxesOf(bytes);
    expect(boxes[0]!.declared.MediaBox).toEqual([0, 0, 600, 400]);
    expect(boxes[1]!.declared.MediaBox).toEqual([0, 0, 300, 400]); // now the page's own entry
    await expectSameLook(before, bytes);
  });

  it('moves annotations with the page and turns their appearances', async () => {
    const rect: [number, number, number, number] = [300, 400, 400, 460];
    const before = await buildPages([{ rotate: 90, annotation: { rect, quadPoints: [300, 460, 400, 460, 300, 400, 400, 400] } }]);
    const { bytes } = await runFix('pages.unrotate', before);
    const [[annot]] = await annotationGeometry(bytes);
    // (x, y) → (y, 595 − x) for a 90° turn of a 595 pt wide page.
    expect(annot!.rect).toEqual([400, 195, 460, 295]);
    expect(annot!.quadPoints).toEqual([460, 295, 460, 195, 400, 295, 400, 195]);
    await expectSameLook(before, bytes);
  });

  it('keeps patterns in place: they are relative to the page space, which turned', async () => {
    const before = await buildPages([{ rotate: 90, content: '/Pattern cs /P1 scn 50 50 300 300 re f BT /F1 12 Tf 0 g 60 400 Td (pattern) Tj ET', pattern: true }]);
    const { bytes } = await runFix('pages.unrotate', before);
    await expectSameLook(before, bytes);
  });

  it('keeps the new matrix when the original content restores more states than it saved', async () => {
    const before = await buildPages([{ rotate: 90, content: `Q Q ${picture([0, 0, 595, 842])}` }]);
    const { bytes } = await runFix('pages.unrotate', before);
    await expectSameLook(before, bytes);
  });

  it('keeps the text extractable', async () => {
    const before = await buildPages([{ rotate: 90 }, { rotate: 270 }]);
    const { bytes } = await runFix('pages.unrotate', before);
    expect(await textOf(bytes)).toEqual(await textOf(before));
    expect((await textOf(bytes))[0]).toContain('Proofline');
  });

  it('changes nothing on unturned pages, and a second run finds nothing to do', async () => {
    const plain = await buildPages([{}, { rotate: 0 }]);
    expect((await runFix('pages.unrotate', plain)).outcome).toMatchObject({ count: 0, pages: [] });
    const once = await runFix('pages.unrotate', await buildPages([{ rotate: 90 }]));
    const twice = await runFix('pages.unrotate', once.bytes);
    expect(twice.outcome).toMatchObject({ count: 0, pages: [] });
    expect(twice.bytes).toBe(once.bytes);
  });
});
