/**
 * The PDF the previews speed bench renders, built in code and the same every
 * time: A4 pages, each with
 * - a heading and 22 lines of text in an embedded TrueType font (Liberation
 *   Sans, shipped by pdfjs-dist) at 7 to 20 pt, in black and in colour;
 * - vector shapes: filled and stroked rectangles, circles of Bézier curves, a
 *   zig-zag polyline, with a dashed line and an even-odd fill;
 * - one RGB image (640 × 480, a colour gradient with a grid) placed upright,
 *   an object of its own per page.
 * This is what a typical print file's page holds; the figures are pages per
 * second, so every page costs about the same.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts, type PDFContext, type PDFRef } from '@cantoo/pdf-lib';
import { embedLiberationSans } from '../../support/pdf-fixtures';

export interface PreviewsSpeedPdfSpec {
  pages: number;
}

const A4: [number, number] = [595.28, 841.89];
const IMAGE = { width: 640, height: 480 };

export async function buildPreviewsSpeedPdf(spec: PreviewsSpeedPdfSpec = { pages: 50 }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  // Liberation Sans' own advances (it is metric-compatible with Helvetica), so text reads normally.
  const font = embedLiberationSans(ctx, await helveticaWidths());
  const pixels = imagePixels();
  for (let p = 0; p < spec.pages; p++) {
    const page = doc.addPage(A4);
    page.node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(pageContent(p))));
    page.node.set(PDFName.of('Resources'), ctx.obj({ Font: { F1: font }, XObject: { Im0: imageObject(ctx, pixels, p) }, ProcSet: ['PDF', 'Text', 'ImageC'] }));
  }
  return doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false });
}

/** Helvetica's advances for codes 32–126, which Liberation Sans shares. */
async function helveticaWidths(): Promise<number[]> {
  const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  return Array.from({ length: 95 }, (_, i) => Math.round(helvetica.widthOfTextAtSize(String.fromCharCode(32 + i), 1000)));
}

/** Deflated RGB: a red–blue gradient under a green grid, so decoding and scaling have real work. */
function imagePixels(): Uint8Array {
  const { width, height } = IMAGE;
  const raw = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grid = x % 32 < 2 || y % 32 < 2;
      raw[i] = Math.round((x / width) * 255);
      raw[i + 1] = grid ? 200 : Math.round(((x + y) % 64) * 2);
      raw[i + 2] = Math.round((y / height) * 255);
    }
  }
  return deflateSync(raw, { level: 6 });
}

function imageObject(ctx: PDFContext, bytes: Uint8Array, page: number): PDFRef {
  const dict = ctx.obj({
    Type: 'XObject',
    Subtype: 'Image',
    Width: IMAGE.width,
    Height: IMAGE.height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceRGB',
    Filter: 'FlateDecode',
    // A distinct object per page, as in a real file (renderers cache by object).
    Name: `Photo${page}`,
  });
  return ctx.register(PDFRawStream.of(dict, bytes));
}

const LINE = 'Proofline previews benchmark: the quick brown fox jumps over the lazy dog. 0123456789';

function pageContent(page: number): string {
  const ops: string[] = [];
  // Vector shapes first (behind the text), positions varied per page.
  const dx = (page % 9) * 3;
  ops.push('q 0.9 0.95 1 rg 30 30 535.28 781.89 re f Q');
  ops.push(`q 0.2 0.4 0.8 RG 2 w 1 0.8 0.2 rg ${40 + dx} 620 160 100 re B Q`);
  ops.push(`q 0.8 0.1 0.3 rg ${circle(420 - dx, 680, 60)} f Q`);
  ops.push(`q 0 0.5 0.3 RG 3 w [6 3] 0 d ${circle(420 - dx, 680, 80)} S Q`);
  const zig = Array.from({ length: 24 }, (_, i) => `${40 + i * 22} ${560 + (i % 2 ? 30 : 0) + (page % 5)} l`).join(' ');
  ops.push(`q 0.1 0.1 0.1 RG 1.5 w 1 J 1 j 40 560 m ${zig} S Q`);
  ops.push(`q 0.3 0.7 0.3 rg 300 430 m 540 430 l 420 530 l h 330 450 m 510 450 l 420 510 l h f* Q`);
  // The image, 288 × 216 pt (160 ppi).
  ops.push('q 288 0 0 216 40 330 cm /Im0 Do Q');
  // A heading, and 22 lines of body text under the image, 7 to 12 pt.
  ops.push('BT');
  ops.push(`0 0 0.4 rg /F1 20 Tf 1 0 0 1 40 770 Tm (Page ${page + 1}: previews benchmark) Tj`);
  let y = 310;
  for (let i = 0; i < 22; i++) {
    const size = 7 + ((i + page) % 6);
    y -= size * 1.3;
    const colour = i % 5 === 0 ? '0.7 0 0 rg' : '0 0 0 rg';
    ops.push(`${colour} /F1 ${size} Tf 1 0 0 1 40 ${y.toFixed(1)} Tm (${LINE.slice(0, 50 + ((i * 7 + page) % 38))}) Tj`);
  }
  ops.push('ET');
  return ops.join('\n');
}

/** A circle of four Bézier curves (the usual 0.5523 control-point factor). */
function circle(cx: number, cy: number, r: number): string {
  const k = 0.5523 * r;
  return [
    `${cx + r} ${cy} m`,
    `${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r} c`,
    `${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy} c`,
    `${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r} c`,
    `${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy} c`,
  ].join(' ');
}
