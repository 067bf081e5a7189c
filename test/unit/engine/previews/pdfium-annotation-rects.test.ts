/**
 * Line, PolyLine and Ink annotations without an appearance are drawn from
 * their coordinates even when their Rect is empty or does not hold them
 * (pdfium-annotation-rects.ts): PDFium clipped them to Rect and drew nothing.
 */
import { describe, expect, it } from 'vitest';
import { PdfiumDocument } from '../../../../lambdas/engine/previews/pdfium';
import { tempFiles } from '../temp-files';
import { rawPdf, stream } from './raw-pdf';

const files = tempFiles('pdfium-annotation-rects');

/** A 100 × 100 pt page with one printing annotation (its dictionary's entries) and, as object 6, a blue form. */
function withAnnotation(entries: string): string {
  return files.write(
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Annots [5 0 R] /Contents 4 0 R >>',
      stream('', ''),
      `<< /Type /Annot /F 4 /C [1 0 0] /BS << /W 3 >> ${entries} >>`,
      stream('/Type /XObject /Subtype /Form /BBox [0 0 100 100]', '0 0 1 rg 0 0 100 100 re f'),
    ]),
    'pdf',
  );
}

/** Renders page 1 at 1 px per point; returns whether pixel (x, y), y from the top, is red. */
async function redAt(path: string, points: [number, number][]): Promise<boolean[]> {
  const doc = await PdfiumDocument.open(path);
  try {
    const px = await doc.renderPage(1, () => ({ width: 100, height: 100 }), 0xffffffff);
    return points.map(([x, y]) => {
      const i = (y * 100 + x) * 4;
      return px.data[i]! > 200 && px.data[i + 1]! < 80 && px.data[i + 2]! < 80;
    });
  } finally {
    doc.close();
  }
}

describe('PDFium annotations drawn from their coordinates', () => {
  it('draws a Line without an appearance whose Rect is empty, along its L', async () => {
    // The line runs along y = 50 pt (row 50 from the top) from x 10 to x 90.
    const path = withAnnotation('/Subtype /Line /Rect [0 0 0 0] /L [10 50 90 50]');
    expect(await redAt(path, [[20, 50], [50, 50], [80, 50]])).toEqual([true, true, true]);
    expect(await redAt(path, [[50, 30]])).toEqual([false]);
  });

  it('draws the whole of a PolyLine and an Ink whose Rect holds only part of them', async () => {
    // Rect covers the left quarter of the page; the shapes reach x 90.
    const poly = withAnnotation('/Subtype /PolyLine /Rect [0 0 25 100] /Vertices [10 50 90 50 90 10]');
    expect(await redAt(poly, [[15, 50], [60, 50], [90, 70]])).toEqual([true, true, true]);
    const ink = withAnnotation('/Subtype /Ink /Rect [0 0 25 100] /InkList [[10 50 90 50]]');
    expect(await redAt(ink, [[15, 50], [60, 50]])).toEqual([true, true]);
  });

  it('leaves an annotation with its own appearance in its Rect: an empty Rect shows nothing of it', async () => {
    const path = withAnnotation('/Subtype /Line /Rect [0 0 0 0] /L [10 50 90 50] /AP << /N 6 0 R >>');
    const doc = await PdfiumDocument.open(path);
    try {
      const px = await doc.renderPage(1, () => ({ width: 100, height: 100 }), 0xffffffff);
      expect(px.data.every((v) => v === 255)).toBe(true);
    } finally {
      doc.close();
    }
  });
});
