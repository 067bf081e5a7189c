/**
 * One PDF page → one image file, through pdfjs-dist onto @napi-rs/canvas and
 * encoded by sharp (page-encode.ts): the fallback renderer, for files PDFium
 * refuses to open (page-render-pdfium.ts is the renderer). Runs inside a
 * render thread (page-thread.ts); the time limit is enforced from outside, by
 * ending the thread (render-pool.ts), so nothing here needs to watch the clock.
 *
 * A problem of the page (too many pixels, a damaged page object, content the
 * renderer rejects) is a PageFailure with a sentence for the customer; writing
 * the file is our side, and its errors stay plain errors (faults).
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { UnprocessableFileError } from '../../domain/errors';
import { withoutAttachmentOnlyEncryption } from './attachment-encryption';
import { sizeProblem, targetSize, type PreviewOptions } from './options';
import { hookCanvas } from './canvas-hooks';
import { writePageImage } from './page-encode';
import { PageFailure, RENDER_FAILED } from './page-failure';
import { openForRendering } from './pdfjs';
import type { PreviewImage } from './types';

export { PageFailure, RENDER_FAILED } from './page-failure';

/** Opens the document, refusing it with a sentence when it cannot be opened at all. */
export async function openDocument(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  try {
    return await openForRendering(bytes);
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') {
      // Only its attachments may be encrypted: then the pages open without a password.
      const readable = await withoutAttachmentOnlyEncryption(bytes);
      if (readable) return openDocument(readable);
      throw new UnprocessableFileError('The PDF is protected by a password that is needed to open it; remove the password and send the file again.');
    }
    throw new UnprocessableFileError('The PDF could not be read for rendering because its structure is damaged; export it again from the application that made it.');
  }
}

/**
 * The canvas of the last page, reused when the next has the same size (most
 * pages of a document do). A canvas' pixels live outside the JavaScript heap,
 * where the garbage collector does not see them: one new canvas per page let a
 * thread hold hundreds of MB of dead canvases between collections.
 */
let spare: Canvas | undefined;

function canvasOf(width: number, height: number): Canvas {
  if (spare && spare.width === width && spare.height === height) {
    // Transparent, identity transform, default state: as new.
    spare.getContext('2d').reset();
    return spare;
  }
  spare = createCanvas(width, height);
  return spare;
}

export async function renderPage(pdf: PDFDocumentProxy, pageNo: number, o: PreviewOptions, role: PreviewImage['role'], outDir: string): Promise<PreviewImage> {
  let page;
  try {
    page = await pdf.getPage(pageNo);
  } catch {
    throw new PageFailure(`Page ${pageNo} could not be read; its page object is damaged.`);
  }
  try {
    // Viewport at scale 1 is the visible (crop) area in points, UserUnit and rotation applied.
    const base = page.getViewport({ scale: 1 });
    const size = targetSize(base.width, base.height, o);
    const problem = sizeProblem(size.width, size.height, o.format);
    if (problem) throw new PageFailure(problem);
    const viewport = page.getViewport({ scale: size.scale });
    const canvas = canvasOf(size.width, size.height);
    const ctx = canvas.getContext('2d');
    const transparent = o.background === 'transparent';
    if (!transparent) {
      ctx.fillStyle = 'white';
      ctx.fillStyle = o.background; // an unparsable colour leaves white in place
      ctx.fillRect(0, 0, size.width, size.height);
    }
    // pdfjs is typed against the DOM canvas; @napi-rs/canvas implements the same API.
    const task = page.render({
      canvas: canvas as never,
      canvasContext: ctx as never,
      viewport,
      background: transparent ? 'rgba(0,0,0,0)' : String(ctx.fillStyle),
    });
    hookCanvas(task);
    try {
      await task.promise;
    } catch {
      throw new PageFailure(RENDER_FAILED);
    }
    // Encoded by sharp from the pixels: the canvas' own PNG encoder loses the
    // alpha channel after pdfjs has drawn, and sharp's JPEG (mozjpeg) is smaller.
    const pixels = ctx.getImageData(0, 0, size.width, size.height).data;
    return await writePageImage(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), size.width, size.height, o, pageNo, role, outDir);
  } finally {
    page.cleanup();
  }
}
