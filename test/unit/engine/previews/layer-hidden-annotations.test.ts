/**
 * Annotations in a layer that is off when the document prints are not drawn
 * in previews: PDFium would draw them (it ignores an annotation's /OC), so the
 * render thread takes them off the page first.
 */
import { readFileSync } from 'node:fs';
import { PDFArray, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPreviews } from '../../../../lambdas/engine/previews/index';
import { endIdleRenderThreads } from '../../../../lambdas/engine/previews/render-threads';
import { PdfiumDocument } from '../../../../lambdas/engine/previews/pdfium';
import { buildPdf } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('layer-annots');
afterAll(() => endIdleRenderThreads());

/** A 200 × 200 page with two red printing Square annotations: left in layer Off (off by default), right in layer On. */
async function layeredAnnotations(): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const ctx = doc.context;
  const off = ctx.register(ctx.obj({ Type: 'OCG', Name: 'Off' }));
  const on = ctx.register(ctx.obj({ Type: 'OCG', Name: 'On' }));
  doc.catalog.set(PDFName.of('OCProperties'), ctx.obj({ OCGs: [off, on], D: { OFF: [off] } } as never));
  const box = () => ctx.register(ctx.stream('1 0 0 rg 0 0 50 50 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 50, 50] } as never));
  const annots = PDFArray.withContext(ctx);
  annots.push(ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Square', Rect: [25, 75, 75, 125], F: 4, OC: off, AP: { N: box() } } as never)));
  annots.push(ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Square', Rect: [125, 75, 175, 125], F: 4, OC: on, AP: { N: box() } } as never)));
  page.node.set(PDFName.of('Annots'), annots);
  return files.write(await doc.save(), 'pdf');
}

describe('previews of annotations in layers', () => {
  it('draws the annotation whose layer is on, and not the one whose layer is off by default', async () => {
    const result = await renderPreviews({ file: await layeredAnnotations(), fileType: 'pdf', params: { format: 'png', dpi: 72, thumbnail: false }, outDir: files.path('out') });
    expect(result.failures).toEqual([]);
    const { data, info } = await sharp(readFileSync(result.images[0]!.path)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    expect(at(150, 100)).toEqual([255, 0, 0]);
    expect(at(50, 100)).toEqual([255, 255, 255]);
  });

  it('asks which annotations are hidden only for a page that has annotations in a layer, naming just those', async () => {
    const layered = await PdfiumDocument.open(await layeredAnnotations());
    const plain = await PdfiumDocument.open(files.write(await buildPdf({ pages: 1 }), 'pdf'));
    const asked: number[][] = [];
    const hiddenAmong = async (candidates: number[]) => {
      asked.push(candidates);
      return new Set<number>();
    };
    try {
      await plain.renderPage(1, () => ({ width: 10, height: 10 }), 0xffffffff, hiddenAmong);
      expect(asked).toEqual([]);
      await layered.renderPage(1, () => ({ width: 10, height: 10 }), 0xffffffff, hiddenAmong);
      expect(asked).toEqual([[0, 1]]);
    } finally {
      layered.close();
      plain.close();
    }
  });
});
