/**
 * The few files the black-box suite sends, built with the shared fixture
 * builders (test/support/pdf-fixtures.ts).
 */
import { PDFName } from '@cantoo/pdf-lib';
import { A5, MM, buildPdf, mutatePdf, pdfaSpec, pdfuaSpec, pngBytes, writeLargePdf, type Rect } from '../../support/pdf-fixtures';

export interface SimplePdf {
  pages?: number;
  /** Document JavaScript and an OpenAction running it (autofix removes them). */
  javascript?: boolean;
  /** false: no TrimBox/BleedBox (preflight warns; autofix's boxes.normalize adds them). Default true. */
  trimBox?: boolean;
}

/**
 * An A5 card, Helvetica text (NOT embedded, so the default profile fails it:
 * the canonical "needs attention" file), with a TrimBox and 3 mm of bleed.
 */
export async function onePagePdfBytes(opts: SimplePdf = {}): Promise<Uint8Array> {
  const bleed = 3 * MM;
  const media: Rect = [0, 0, A5[0] + 2 * bleed, A5[1] + 2 * bleed];
  const boxes = opts.trimBox === false ? {} : { trimBox: [bleed, bleed, bleed + A5[0], bleed + A5[1]] as Rect, bleedBox: media };
  return buildPdf({
    pages: opts.pages ?? 1,
    pageDefaults: { mediaBox: media, ...boxes },
    ...(opts.javascript ? { documentJavaScript: 'app.alert("hello");', openAction: 'javascript' as const } : {}),
  });
}

export async function onePagePdfBase64(opts: SimplePdf = {}): Promise<string> {
  return Buffer.from(await onePagePdfBytes(opts)).toString('base64');
}

/**
 * An A5 card that passes the default profile (embedded font, TrimBox, 3 mm bleed), with one
 * CMYK area of `percent` total ink: `colour.tac` judges it against the profile's maximum.
 */
export async function inkyPdfBase64(percent: number): Promise<string> {
  const bleed = 3 * MM;
  const media: Rect = [0, 0, A5[0] + 2 * bleed, A5[1] + 2 * bleed];
  const base = await buildPdf({ pages: [{ mediaBox: media, trimBox: [bleed, bleed, bleed + A5[0], bleed + A5[1]], bleedBox: media, font: 'embedded', colourSpace: 'cmyk' }] });
  const ink = (percent / 400).toFixed(4);
  const bytes = await mutatePdf(base, (doc) => {
    const ctx = doc.context;
    doc.getPage(0).node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(`${ink} ${ink} ${ink} ${ink} k 100 100 150 150 re f`)));
  });
  return Buffer.from(bytes).toString('base64');
}

export async function pngBase64(): Promise<string> {
  return (await pngBytes()).toString('base64');
}

/** Streams a valid PDF of about `bytes` to `path` without holding it in memory. */
export async function writeLargePdfFile(path: string, bytes: number): Promise<number> {
  return writeLargePdf(path, bytes);
}

/** A generated PDF/A-2a file that also claims PDF/UA-1 and meets both (tagged, embedded font, sRGB output intent). */
export async function pdfaAndUaBase64(): Promise<string> {
  const ua = pdfuaSpec(1);
  return Buffer.from(await buildPdf(pdfaSpec(2, 'A', { pdfua: ua.pdfua, displayDocTitle: true, title: ua.title }))).toString('base64');
}

/** A PDF that needs a password to open. */
export async function passwordPdfBase64(): Promise<string> {
  return Buffer.from(await buildPdf({ encrypt: { userPassword: 'secret', ownerPassword: 'owner' } })).toString('base64');
}

/** Two pages of uncompressed content: optimize makes it much smaller (streams.recompress). */
export async function bloatedPdfBase64(): Promise<string> {
  // Imported here, not at the top: the optimize fixtures bring the engines with them (3 s of
  // loading), which every e2e file importing this module would pay, and only optimize.test.ts needs.
  const { addPage, busyContent, save, stream, withFont } = await import('../../unit/engine/optimize/fixtures');
  const { doc, font } = await withFont();
  addPage(doc, stream(doc, busyContent(1), null), font);
  addPage(doc, stream(doc, busyContent(2), null), font);
  return Buffer.from(await save(doc)).toString('base64');
}

/** A 1600×1200 photo-like JPEG saved at quality 100 with EXIF: optimize re-encodes it smaller and can resize it. */
export async function heavyJpegBase64(): Promise<string> {
  const { default: sharp } = await import('sharp');
  const width = 1600;
  const height = 1200;
  const rgb = Buffer.alloc(width * height * 3);
  // Smooth gradients with a fine ripple: neither flat (trivially small) nor noise (incompressible).
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      rgb[i] = (x * 255) / width;
      rgb[i + 1] = (y * 255) / height;
      rgb[i + 2] = 128 + 60 * Math.sin(x / 7) * Math.cos(y / 11);
    }
  }
  const jpeg = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { Copyright: 'Proofline test', Software: 'e2e fixture' } })
    .jpeg({ quality: 100 })
    .toBuffer();
  return jpeg.toString('base64');
}
