/**
 * The 500-page text-and-image PDF the speed bench measures, built in code and
 * the same every time (no randomness):
 *
 * - every page: 40 lines of text in one embedded TrueType font (Liberation
 *   Sans, shipped by pdfjs-dist) at 6, 9, 12 and 24 pt;
 * - every page: four distinct image XObjects — RGB 600×400 placed upright,
 *   CMYK 800×600 turned 30° inside a form XObject of its own, gray 1200×800
 *   scaled unevenly, and a 1-bit 1600×1600 image mask — so the file holds
 *   2,000 image objects and 500 forms.
 *
 * Image objects of one kind share their (valid, deflated) bytes and differ in
 * their dictionaries: distinct objects are what preflight and pdfimages walk,
 * and building 2,000 distinct pictures would make the bench slow to start.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, type PDFContext, type PDFRef } from '@cantoo/pdf-lib';
import { embedLiberationSans } from '../../support/pdf-fixtures';

export interface SpeedPdfSpec {
  pages: number;
}

const A4: [number, number] = [595.28, 841.89];

interface ImageKind {
  width: number;
  height: number;
  colourSpace: string | null;
  bits: number;
  bytes: Uint8Array;
}

function imageKind(width: number, height: number, colourSpace: string | null, components: number, bits: number): ImageKind {
  const rowBytes = Math.ceil((width * components * bits) / 8);
  // A gentle gradient: decodable, compresses well, not all one colour.
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) raw.fill((y * 7) & 0xff, y * rowBytes, (y + 1) * rowBytes);
  return { width, height, colourSpace, bits, bytes: deflateSync(raw, { level: 6 }) };
}

export async function buildSpeedPdf(spec: SpeedPdfSpec = { pages: 500 }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const font = embeddedFont(ctx);
  const kinds = {
    rgb: imageKind(600, 400, 'DeviceRGB', 3, 8),
    cmyk: imageKind(800, 600, 'DeviceCMYK', 4, 8),
    gray: imageKind(1200, 800, 'DeviceGray', 1, 8),
    mask: imageKind(1600, 1600, null, 1, 1),
  };

  for (let p = 0; p < spec.pages; p++) {
    const images = {
      Im0: imageObject(ctx, kinds.rgb, p),
      Im2: imageObject(ctx, kinds.gray, p),
      Im3: imageObject(ctx, kinds.mask, p),
    };
    const form = rotatedImageForm(ctx, imageObject(ctx, kinds.cmyk, p), p);
    const content = ctx.flateStream(pageContent(p));
    const page = doc.addPage(A4);
    page.node.set(PDFName.of('Contents'), ctx.register(content));
    page.node.set(
      PDFName.of('Resources'),
      ctx.obj({ Font: { F1: font }, XObject: { ...images, Fm1: form }, ProcSet: ['PDF', 'Text', 'ImageB', 'ImageC'] }),
    );
  }
  return doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false });
}

function imageObject(ctx: PDFContext, kind: ImageKind, page: number): PDFRef {
  const dict = ctx.obj({
    Type: 'XObject',
    Subtype: 'Image',
    Width: kind.width,
    Height: kind.height,
    BitsPerComponent: kind.bits,
    Filter: 'FlateDecode',
    // Makes every object's dictionary different, as in a real file.
    Name: `Im${page}_${kind.width}`,
    ...(kind.colourSpace ? { ColorSpace: kind.colourSpace } : { ImageMask: true }),
  });
  return ctx.register(PDFRawStream.of(dict, kind.bytes));
}

/** A form that paints its image turned by 30°, about 250 × 190 pt. */
function rotatedImageForm(ctx: PDFContext, image: PDFRef, page: number): PDFRef {
  const a = (30 * Math.PI) / 180;
  const [w, h] = [250, 187.5];
  const m = [w * Math.cos(a), w * Math.sin(a), -h * Math.sin(a), h * Math.cos(a), 100 + (page % 7), 0].map((n) => n.toFixed(4));
  const body = `q ${m.join(' ')} cm /Im1 Do Q`;
  return ctx.register(
    ctx.flateStream(body, {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [-200, 0, 400, 400],
      Resources: { XObject: { Im1: image } },
    }),
  );
}

const SIZES = [6, 9, 12, 24];
const LINE = 'Proofline preflight benchmark: the quick brown fox jumps over the lazy dog 0123456789';

function pageContent(page: number): string {
  const ops: string[] = ['BT'];
  let y = 800;
  for (let i = 0; i < 40; i++) {
    const size = SIZES[i % SIZES.length]!;
    y -= size + 2;
    if (y < 40) y = 800 - (i % 5) * 3;
    ops.push(`/F1 ${size} Tf 1 0 0 1 40 ${y.toFixed(1)} Tm (${LINE.slice(0, 30 + ((i + page) % 50))}) Tj`);
  }
  ops.push('ET');
  // RGB image upright, 200 × 133 pt (216 ppi); gray unevenly scaled; image mask small (high ppi).
  ops.push('q 200 0 0 133.33 40 300 cm /Im0 Do Q');
  ops.push(`q 180 0 0 ${100 + (page % 40)} 320 300 cm /Im2 Do Q`);
  ops.push('0 0 0 rg q 96 0 0 96 450 60 cm /Im3 Do Q');
  ops.push('q 1 0 0 1 0 480 cm /Fm1 Do Q');
  return ops.join('\n');
}

function embeddedFont(ctx: PDFContext): PDFRef {
  // Average Liberation Sans advance; exact metrics do not matter to either tool.
  return embedLiberationSans(ctx, Array.from({ length: 95 }, () => 556));
}
