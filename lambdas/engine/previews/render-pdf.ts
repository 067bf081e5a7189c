/**
 * PDF pages → image files through pdfjs-dist onto @napi-rs/canvas. Each page is
 * rendered on its own: a page that is too large for the pixel budget, throws,
 * or takes too long fails alone with a reason, and the others are delivered.
 */
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { UnprocessableFileError } from '../../domain/errors';
import { EXTENSIONS, MIME_TYPES, selectPages, sizeProblem, targetSize, THUMBNAIL_PX, type PreviewOptions } from './options';
import { openForRendering } from './pdfjs';
import type { PreviewImage, PreviewOutcome } from './types';

/** A page still rendering after this long is abandoned (cancelled) and reported. */
const PAGE_TIMEOUT_MS = 120_000;
/**
 * Pages not started within this time are reported instead of rendered, so the
 * step finishes with what it has well inside the worker's 15-minute limit.
 */
const TOTAL_BUDGET_MS = 600_000;

export interface RenderBudget {
  totalMs: number;
  now: () => number;
}

export async function renderPdfPreviews(
  bytes: Uint8Array,
  o: PreviewOptions,
  outDir: string,
  budget: RenderBudget = { totalMs: TOTAL_BUDGET_MS, now: Date.now },
): Promise<PreviewOutcome> {
  const pdf = await open(bytes);
  try {
    const { pages, missing, overLimit } = selectPages(o.pages, pdf.numPages);
    const images: PreviewImage[] = [];
    const failures: PreviewOutcome['failures'] = [];
    for (const m of missing) {
      failures.push({ page: m.from, reason: `The document has ${pdf.numPages} pages; ${m.from === m.to ? `page ${m.from} does` : `pages ${m.from}–${m.to} do`} not exist.` });
    }
    for (const page of overLimit) failures.push({ page, reason: `Previews are limited to ${pages.length} pages per step; request this page in another step.` });

    const started = budget.now();
    for (const pageNo of pages) {
      if (budget.now() - started > budget.totalMs) {
        failures.push({ page: pageNo, reason: `Rendering stopped after ${Math.round(budget.totalMs / 1000)} s before this page; request fewer pages or a lower resolution.` });
        continue;
      }
      try {
        images.push(await renderPage(pdf, pageNo, o, 'preview', outDir));
      } catch (e) {
        if (!(e instanceof PageFailure)) throw e;
        failures.push({ page: pageNo, reason: e.message });
      }
    }
    if (o.thumbnail) {
      try {
        images.push(await renderPage(pdf, 1, { ...o, width: THUMBNAIL_PX, height: THUMBNAIL_PX }, 'thumbnail', outDir));
      } catch (e) {
        // The thumbnail is a convenience: page 1's own preview (or its failure) already tells the story.
        if (!(e instanceof PageFailure)) throw e;
      }
    }
    return { images, failures: failures.sort((a, b) => a.page - b.page), pages };
  } finally {
    await pdf.destroy();
  }
}

async function open(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  try {
    return await openForRendering(bytes);
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new UnprocessableFileError('The PDF is protected by a password that is needed to open it; remove the password and send the file again.');
    }
    throw new UnprocessableFileError('The PDF could not be read for rendering because its structure is damaged; export it again from the application that made it.');
  }
}

class PageFailure extends Error {}

async function renderPage(pdf: PDFDocumentProxy, pageNo: number, o: PreviewOptions, role: PreviewImage['role'], outDir: string): Promise<PreviewImage> {
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
    const canvas = createCanvas(size.width, size.height);
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
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        task.cancel();
        reject(new PageFailure(`Page ${pageNo} took longer than ${PAGE_TIMEOUT_MS / 1000} s to render and was abandoned.`));
      }, PAGE_TIMEOUT_MS);
    });
    try {
      await Promise.race([task.promise, timeout]);
    } catch (e) {
      throw e instanceof PageFailure ? e : new PageFailure(RENDER_FAILED);
    } finally {
      clearTimeout(timer);
    }
    // Encoding and writing are our side: their errors are faults, not the page's.
    // Encoded by sharp from the pixels: the canvas' own PNG encoder loses the
    // alpha channel after pdfjs has drawn, and sharp's JPEG (mozjpeg) is smaller.
    const pixels = ctx.getImageData(0, 0, size.width, size.height).data;
    const raw = sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), { raw: { width: size.width, height: size.height, channels: 4 } });
    const encoded = o.format === 'png' ? raw.png() : o.format === 'webp' ? raw.webp({ quality: o.quality }) : raw.flatten({ background: '#ffffff' }).jpeg({ quality: o.quality });
    const path = join(outDir, role === 'thumbnail' ? `thumbnail.${EXTENSIONS[o.format]}` : `page-${pageNo}.${EXTENSIONS[o.format]}`);
    const info = await encoded.toFile(path);
    return { role, page: pageNo, path, mimeType: MIME_TYPES[o.format], width: info.width, height: info.height, sizeBytes: info.size };
  } finally {
    page.cleanup();
  }
}

const RENDER_FAILED = 'The page could not be rendered: its content is damaged or uses a feature the renderer does not support.';
