import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { marginsMm, readPageBoxes, sizeMm } from '../../../../lambdas/engine/core/page-boxes';
import { A4, buildPdf, mutatePdf } from '../../../support/pdf-fixtures';

async function boxesOf(bytes: Uint8Array, page = 0) {
  const { doc } = await openPdfBytes(bytes);
  return readPageBoxes(doc.context, doc.getPage(page).node);
}

describe('page boxes', () => {
  it('defaults Bleed/Trim/ArtBox to the CropBox, and the CropBox to the MediaBox', async () => {
    const b = await boxesOf(await buildPdf({ pages: [{ cropBox: [10, 10, 500, 800] }] }));
    expect(b.declared.TrimBox).toBeNull();
    expect(b.crop).toEqual([10, 10, 500, 800]);
    expect(b.trim).toEqual(b.crop);
    expect(b.bleed).toEqual(b.crop);
  });

  it('inherits MediaBox and Rotate from the page tree but not TrimBox', async () => {
    const bytes = await mutatePdf(await buildPdf({ pages: [{ trimBox: [5, 5, 100, 100] }] }), (doc) => {
      const leaf = doc.getPage(0).node;
      const tree = doc.catalog.lookup(PDFName.of('Pages')) as typeof leaf;
      leaf.delete(PDFName.of('MediaBox'));
      tree.set(PDFName.of('MediaBox'), doc.context.obj([0, 0, 300, 400]));
      tree.set(PDFName.of('Rotate'), doc.context.obj(90));
      tree.set(PDFName.of('TrimBox'), doc.context.obj([1, 1, 2, 2]));
    });
    const b = await boxesOf(bytes);
    expect(b.media).toEqual([0, 0, 300, 400]);
    expect(b.rotation).toBe(90);
    expect(b.declared.TrimBox).toEqual([5, 5, 100, 100]);
  });

  it('normalises reversed rectangles and ignores unusable ones', async () => {
    const b = await boxesOf(await buildPdf({ pages: [{ trimBox: [500, 800, 10, 10], bleedBox: [0, 0, 0, 0] }] }));
    expect(b.declared.TrimBox).toEqual([10, 10, 500, 800]);
    expect(b.declared.BleedBox).toBeNull();
  });

  it('measures in millimetres with UserUnit and rotation applied', async () => {
    const b = await boxesOf(await buildPdf({ pages: [{ size: [100, 200], userUnit: 2, rotate: 270 }] }));
    expect(b.userUnit).toBe(2);
    expect(sizeMm(b.media, b.userUnit, b.rotation)).toEqual({ width: 141.1, height: 70.6 });
    expect(sizeMm([0, 0, ...A4], 1)).toEqual({ width: 210, height: 297 });
  });

  it('measures bleed per side', () => {
    const mm = 72 / 25.4;
    expect(marginsMm([0, 0, 100 + 6 * mm, 100 + 5 * mm], [3 * mm, 2 * mm, 100 + 3 * mm, 100 + 3 * mm], 1)).toEqual({ top: 2, right: 3, bottom: 2, left: 3 });
  });
});
