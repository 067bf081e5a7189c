/**
 * One PDF page → one image file, rendered by PDFium (pdfium.ts) and encoded by
 * sharp (page-encode.ts). Runs inside a render thread (page-thread.ts); the
 * time limit is enforced from outside, by ending the thread (render-pool.ts).
 *
 * The output is the page's CropBox with its rotation, at the size the options
 * ask for, as with pdf.js (page-render.ts, the fallback). pdf.js needs two
 * canvas hooks to look right at preview resolutions, glyph snapping and
 * stroke adjustment (canvas-hooks.ts): both make up for a canvas that
 * anti-aliases every glyph and hairline as pure geometry, so thin rules fade
 * to a light grey and the same letter looks different on every line. PDFium
 * does neither: its rasteriser widens strokes and fills thinner than a pixel
 * to one device pixel (measured: a 0.1 pt horizontal hairline and a 0.3 pt
 * filled rectangle at 72 dpi come out as one solid black pixel row, where a
 * canvas without stroke adjustment draws a faint grey; pdfium.test.ts), and
 * it draws glyphs through FreeType
 * at the device size, as pdftoppm does. So nothing is added here;
 * bench:previews measures the result against three references.
 */
import sharp from 'sharp';
import { sizeProblem, targetSize, type PreviewOptions } from './options';
import { writePageImage } from './page-encode';
import { PageFailure } from './page-failure';
import { PdfiumOutOfMemory, PdfiumPageUnreadable, type PdfiumDocument, type RgbaPixels } from './pdfium';
import type { PreviewImage } from './types';
import type { LayerHiddenAnnotations } from './layer-hidden-annotations';

export async function renderPdfiumPage(
  doc: PdfiumDocument,
  pageNo: number,
  o: PreviewOptions,
  role: PreviewImage['role'],
  outDir: string,
  layers?: LayerHiddenAnnotations,
): Promise<PreviewImage> {
  const background = await backgroundArgb(o.background);
  let pixels: RgbaPixels;
  try {
    pixels = await doc.renderPage(
      pageNo,
      (wPt, hPt) => {
        const size = targetSize(wPt, hPt, o);
        const problem = sizeProblem(size.width, size.height, o.format);
        if (problem) throw new PageFailure(problem);
        return size;
      },
      background,
      layers ? (layered) => layers.forPage(pageNo, layered) : undefined,
    );
  } catch (e) {
    if (e instanceof PdfiumPageUnreadable) throw new PageFailure(`Page ${pageNo} could not be read; its page object is damaged.`);
    if (e instanceof PdfiumOutOfMemory) throw new PageFailure(`Page ${pageNo} needs more memory than the renderer has to render at this size; request a lower resolution.`);
    throw e;
  }
  return writePageImage(pixels.data, pixels.width, pixels.height, o, pageNo, role, outDir);
}

const backgrounds = new Map<string, number>();

/** The background as 0xAARRGGBB: 0 for transparent; white when sharp cannot parse the colour (as pdf.js' canvas leaves it). */
export async function backgroundArgb(colour: string): Promise<number> {
  if (colour === 'transparent') return 0;
  if (colour === 'white') return 0xffffffff;
  const known = backgrounds.get(colour);
  if (known !== undefined) return known;
  let argb = 0xffffffff;
  try {
    const px = await sharp({ create: { width: 1, height: 1, channels: 4, background: colour } }).raw().toBuffer();
    // Flattened onto white: a page background is opaque unless it is 'transparent'.
    const a = px[3]! / 255;
    const over = (c: number) => Math.round(c * a + 255 * (1 - a));
    argb = (0xff000000 | (over(px[0]!) << 16) | (over(px[1]!) << 8) | over(px[2]!)) >>> 0;
  } catch {
    // not a colour: white
  }
  backgrounds.set(colour, argb);
  return argb;
}
