import { describe, expect, it } from 'vitest';
import { isPdfiumCrash, PDFIUM_ERRORS, PdfiumDocument, PdfiumPageUnreadable, PdfiumRefused } from '../../../../lambdas/engine/previews/pdfium';
import { backgroundArgb } from '../../../../lambdas/engine/previews/page-render-pdfium';
import { buildPdf } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';
import { rawPdf, stream } from './raw-pdf';

const files = tempFiles('pdfium');

/** RGBA of pixel (x, y) of rendered pixels. */
const at = (px: { data: Buffer; width: number }, x: number, y: number): number[] => [...px.data.subarray((y * px.width + x) * 4, (y * px.width + x) * 4 + 4)];

describe('PDFium', () => {
  it('opens a file by its path and reads only the blocks the page needs: not a 40 MB stream no page uses', async () => {
    const unused = Buffer.alloc(40 * 1024 * 1024, 0x78);
    const path = files.write(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>',
        stream('', '1 0 0 rg 10 10 50 50 re f'),
        stream('', unused),
      ]),
      'pdf',
    );
    const doc = await PdfiumDocument.open(path);
    try {
      expect(doc.numPages).toBe(1);
      const px = await doc.renderPage(1, () => ({ width: 200, height: 100 }), 0xffffffff);
      expect(at(px, 30, 70)).toEqual([255, 0, 0, 255]);
      expect(doc.bytesRead).toBeGreaterThan(0);
      expect(doc.bytesRead).toBeLessThan(64 * 1024);
    } finally {
      doc.close();
    }
  });

  it('hands back RGBA in that order: a red square is red, on the background asked for', async () => {
    // The fixture draws a red 100 pt square at (100, 100) from the bottom left of an A4 page.
    const doc = await PdfiumDocument.open(files.write(await buildPdf({ pages: [{ text: null }] }), 'pdf'));
    try {
      const px = await doc.renderPage(1, () => ({ width: 595, height: 842 }), await backgroundArgb('#0000ff'));
      expect(at(px, 150, 842 - 150)).toEqual([255, 0, 0, 255]);
      expect(at(px, 2, 2)).toEqual([0, 0, 255, 255]);
      const clear = await doc.renderPage(1, () => ({ width: 595, height: 842 }), await backgroundArgb('transparent'));
      expect(at(clear, 2, 2)[3]).toBe(0);
      expect(at(clear, 150, 842 - 150)).toEqual([255, 0, 0, 255]);
    } finally {
      doc.close();
    }
  });

  it('composites the page group against transparency and lays it on the background: a Difference-blended red square stays red on white', async () => {
    // The page group is isolated when a page is shown on a medium (ISO 32000-1 11.4.7); blended with the
    // white background instead, Difference turns red into cyan (as in transparency_group.pdf of the pdf.js corpus).
    const path = files.write(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R /Group << /S /Transparency /CS /DeviceRGB /I false >> /Resources << /ExtGState << /D << /BM /Difference >> /H << /CA 0.5 /ca 0.5 >> >> >> >>',
        stream('', '/D gs 1 0 0 rg 0 50 50 50 re f /H gs 0 0 1 rg 50 0 50 50 re f'),
      ]),
      'pdf',
    );
    const doc = await PdfiumDocument.open(path);
    try {
      const white = await doc.renderPage(1, () => ({ width: 100, height: 100 }), await backgroundArgb('white'));
      expect(at(white, 25, 25)).toEqual([255, 0, 0, 255]);
      // Half-transparent blue over white: the page's alpha is laid onto the background, not dropped.
      expect(at(white, 75, 75)).toEqual([128, 128, 255, 255]);
      expect(at(white, 75, 25)).toEqual([255, 255, 255, 255]);
      const clear = await doc.renderPage(1, () => ({ width: 100, height: 100 }), await backgroundArgb('transparent'));
      expect(at(clear, 25, 25)).toEqual([255, 0, 0, 255]);
      expect(at(clear, 75, 25)[3]).toBe(0);
    } finally {
      doc.close();
    }
  });

  it('draws the annotations and form fields that print, and not those that do not', async () => {
    // Four blue squares' appearances: an annotation and a text field, each once with the Print flag (F 4) and once without.
    const path = files.write(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [8 0 R 9 0 R] >> >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Annots [5 0 R 6 0 R 8 0 R 9 0 R] /Contents 4 0 R >>',
        stream('', ''),
        '<< /Type /Annot /Subtype /Square /Rect [0 0 40 40] /F 4 /AP << /N 7 0 R >> >>',
        '<< /Type /Annot /Subtype /Square /Rect [50 0 90 40] /F 0 /AP << /N 7 0 R >> >>',
        stream('/Type /XObject /Subtype /Form /BBox [0 0 40 40]', '0 0 1 rg 0 0 40 40 re f'),
        '<< /Type /Annot /Subtype /Widget /FT /Tx /T (printed) /Rect [100 0 140 40] /F 4 /AP << /N 7 0 R >> >>',
        '<< /Type /Annot /Subtype /Widget /FT /Tx /T (screen) /Rect [150 0 190 40] /F 0 /AP << /N 7 0 R >> >>',
      ]),
      'pdf',
    );
    const doc = await PdfiumDocument.open(path);
    try {
      const px = await doc.renderPage(1, () => ({ width: 200, height: 100 }), 0xffffffff);
      const blue = (x: number) => at(px, x, 80)[2] === 255 && at(px, x, 80)[0]! < 50;
      expect([20, 70, 120, 170].map(blue)).toEqual([true, false, true, false]);
    } finally {
      doc.close();
    }
  });

  it('refuses a file it cannot open with FPDF_GetLastError\'s code', async () => {
    const noHeader = Buffer.from(await buildPdf({ pages: 1 }));
    noHeader.write('%XYZ', 0);
    await expect(PdfiumDocument.open(files.write(noHeader, 'pdf'))).rejects.toEqual(new PdfiumRefused(PDFIUM_ERRORS.FORMAT));
    const locked = files.write(await buildPdf({ encrypt: { userPassword: 'u', ownerPassword: 'o' } }), 'pdf');
    await expect(PdfiumDocument.open(locked)).rejects.toMatchObject({ code: PDFIUM_ERRORS.PASSWORD });
  });

  it('loads a page once for its size and its pixels, and says when a page cannot be loaded', async () => {
    const doc = await PdfiumDocument.open(files.write(await buildPdf({ pages: [{ size: [300, 200], rotate: 90, text: null }] }), 'pdf'));
    try {
      const seen: number[][] = [];
      const px = await doc.renderPage(1, (w, h) => (seen.push([w, h]), { width: 20, height: 30 }), 0xffffffff);
      expect(seen).toEqual([[200, 300]]);
      expect([px.width, px.height, px.data.length]).toEqual([20, 30, 20 * 30 * 4]);
      await expect(doc.renderPage(2, () => ({ width: 1, height: 1 }), 0)).rejects.toThrow(PdfiumPageUnreadable);
    } finally {
      doc.close();
    }
  });

  it('tells a trap or abort inside the wasm from a page it refused', () => {
    expect(isPdfiumCrash(Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' }))).toBe(true);
    expect(isPdfiumCrash(new Error('Aborted(OOM)'))).toBe(true);
    expect(isPdfiumCrash(new PdfiumPageUnreadable(3))).toBe(false);
  });

  it('draws a 0.1 pt hairline and a 0.3 pt filled rule as a solid pixel row, without the stroke adjustment pdf.js needs', async () => {
    const path = files.write(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>',
        stream('', '0 0 0 RG 0.1 w 10 50.5 m 190 50.5 l S 0 0 0 rg 20 70 160 0.3 re f'),
      ]),
      'pdf',
    );
    const doc = await PdfiumDocument.open(path);
    try {
      const px = await doc.renderPage(1, () => ({ width: 200, height: 100 }), 0xffffffff);
      const darkest = (y0: number, y1: number) => Math.min(...Array.from({ length: y1 - y0 }, (_, i) => at(px, 50, y0 + i)[0]!));
      expect(darkest(45, 55)).toBe(0);
      expect(darkest(25, 35)).toBe(0);
    } finally {
      doc.close();
    }
  });
});
