import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { readOptions } from '../../../../lambdas/engine/previews/options';
import { renderPdfPreviews } from '../../../../lambdas/engine/previews/render-pdf';
import { RenderPool } from '../../../../lambdas/engine/previews/render-pool';
import { endIdleRenderThreads, renderThreadsAlive, renderThreadsSettled } from '../../../../lambdas/engine/previews/render-threads';
import { buildPdf, type PdfSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';
import { pagesAndUnusedStream } from './raw-pdf';

const files = tempFiles('render-pool');
let outN = 0;
const outDir = () => {
  const dir = files.path(`out${++outN}`);
  mkdirSync(dir);
  return dir;
};
const noBudget = { totalMs: Infinity, now: () => 0 };
const pdfFile = async (spec: PdfSpec) => files.write(await buildPdf(spec), 'pdf');

afterAll(() => endIdleRenderThreads());

describe('the render pool', () => {
  it('leaves PDFium and pdfjs to the render threads: the calling thread never loads either', async () => {
    const pool = await RenderPool.open(await pdfFile({ pages: 1 }), { threads: 1 });
    try {
      const [result] = await pool.render([{ page: 1, role: 'preview', options: readOptions({ format: 'png' }) }], outDir());
      expect(result!.image).toBeDefined();
    } finally {
      await pool.close();
    }
    // pdfjs.ts sets this when it is loaded; under tsx pdfjs costs this thread some 400 MB.
    expect((globalThis as { pdfjsWorker?: unknown }).pdfjsWorker).toBeUndefined();
  });

  it('renders pages on several threads and hands them back in page order, each with its own size', async () => {
    // Six pages, each a different size, so a page delivered in the wrong place shows.
    const sizes: [number, number][] = [[72, 144], [144, 72], [100, 100], [200, 50], [50, 200], [120, 90]];
    const bytes = await pdfFile({ pages: sizes.map((size) => ({ size, text: null })) });
    const pool = await RenderPool.open(bytes, { threads: 2 });
    try {
      expect(pool.numPages).toBe(6);
      const o = readOptions({ dpi: 144, format: 'png' });
      const results = await pool.render(sizes.map((_, i) => ({ page: i + 1, role: 'preview' as const, options: o })), outDir());
      expect(results.map((r) => [r.image?.page, r.image?.width, r.image?.height])).toEqual(sizes.map(([w, h], i) => [i + 1, w * 2, h * 2]));
      for (const r of results) {
        const meta = await sharp(r.image!.path).metadata();
        expect([meta.width, meta.height]).toEqual([r.image!.width, r.image!.height]);
      }
    } finally {
      await pool.close();
    }
  });

  it('hands pages to whichever thread is free: a page stuck on one thread holds up none of the others', async () => {
    const bytes = await pdfFile({ pages: 5, pageDefaults: { size: [72, 72], text: null } });
    const pool = await RenderPool.open(bytes, { threads: 2, pageTimeoutMs: 5_000, stallPages: [1] });
    try {
      const o = readOptions({ format: 'png' });
      const results = await pool.render([1, 2, 3, 4, 5].map((page) => ({ page, role: 'preview' as const, options: o })), outDir());
      expect(results[0]!.reason).toMatch(/^Page 1 took longer than 5 s/);
      // Pages 2–5 went to the other thread while page 1 was stuck: it renders them all before the stuck one is stopped.
      expect(results.slice(1).map((r) => r.image?.page)).toEqual([2, 3, 4, 5]);
      expect(new Set(results.slice(1).map((r) => r.threadId)).size).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('renders a file in storage read in ranges: the same pixels as from disk, fetching only what the pages need', async () => {
    // Eight pages, each with its own 300 KB image that does not compress: page 1 needs a small part of the file.
    const bytes = await buildPdf({ pages: 8, pageDefaults: { size: [144, 144], image: { widthPx: 320, heightPx: 320, placedWidthPt: 100, placedHeightPt: 100 } } });
    const path = files.write(bytes, 'pdf');
    let asked = 0;
    const stored = {
      size: bytes.length,
      read: async (offset: number, length: number) => {
        asked++;
        return new Uint8Array(bytes.subarray(offset, offset + length));
      },
    };
    const o = readOptions({ format: 'png', dpi: 72 });
    const renderOne = async (file: string | typeof stored) => {
      const pool = await RenderPool.open(file, { threads: 2 });
      try {
        const [result] = await pool.render([{ page: 1, role: 'preview', options: o }], outDir());
        return { pixels: await sharp(result!.image!.path).raw().toBuffer(), reads: pool.storageReads };
      } finally {
        await pool.close();
      }
    };
    const fromDisk = await renderOne(path);
    const fromStorage = await renderOne(stored);
    expect(fromStorage.pixels.equals(fromDisk.pixels)).toBe(true);
    expect(fromDisk.reads).toBeNull();
    expect(fromStorage.reads!.requests).toBe(asked);
    expect(fromStorage.reads!.bytes).toBeLessThan(bytes.length / 2);
  });

  it('fails with the storage error, not as a damaged file, when the file cannot be read from storage', async () => {
    const bytes = await buildPdf({ pages: 2 });
    const broken = {
      size: bytes.length,
      read: async () => {
        throw new Error('NoSuchKey: The specified key does not exist.');
      },
    };
    const refused = await RenderPool.open(broken, { threads: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(refused).not.toBeInstanceOf(UnprocessableFileError);
    expect((refused as Error).message).toMatch(/could not be read from storage \(NoSuchKey/);
  });

  it('stops a page that hangs by ending its thread: that page fails with a reason, the others (and the thumbnail) are delivered', async () => {
    const bytes = await pdfFile({ pages: 5, pageDefaults: { size: [144, 144] } });
    // Page 2 spins for ever: only its time limit can end it, and the reason below says that it did.
    const r = await renderPdfPreviews(bytes, readOptions({}), outDir(), noBudget, { threads: 2, pageTimeoutMs: 1500, stallPages: [2] });
    expect(r.images.map((i) => [i.role, i.page])).toEqual([
      ['preview', 1],
      ['preview', 3],
      ['preview', 4],
      ['preview', 5],
      ['thumbnail', 1],
    ]);
    expect(r.failures).toEqual([
      {
        page: 2,
        reason: 'Page 2 took longer than 1.5 s to render and was stopped; simplify the page (for example flatten transparency) or request a lower resolution.',
      },
    ]);
    expect(r.pages).toEqual([1, 2, 3, 4, 5]);
  });

  it("stops at the caller's deadline: the page still rendering has its thread ended, later pages are not started, and what was rendered is delivered", async () => {
    const bytes = await pdfFile({ pages: 4, pageDefaults: { size: [72, 72], text: null } });
    const budget = { totalMs: Infinity, now: Date.now, stopAt: Date.now() + 4_000 };
    const r = await renderPdfPreviews(bytes, readOptions({ thumbnail: false }), outDir(), budget, { threads: 1, pageTimeoutMs: 600_000, stallPages: [2] });
    expect(r.images.map((i) => i.page)).toEqual([1]);
    expect(r.failures).toEqual([
      { page: 2, reason: 'Page 2 was still rendering at the time limit and was stopped.' },
      { page: 3, reason: 'Rendering was stopped at the time limit before this page was started.' },
      { page: 4, reason: 'Rendering was stopped at the time limit before this page was started.' },
    ]);
  });

  it('fails every page that hangs and still delivers the rest with a single thread', async () => {
    const bytes = await pdfFile({ pages: 4, pageDefaults: { size: [72, 72], text: null } });
    const r = await renderPdfPreviews(bytes, readOptions({ thumbnail: false }), outDir(), noBudget, { threads: 1, pageTimeoutMs: 1000, stallPages: [1, 3] });
    expect(r.images.map((i) => i.page)).toEqual([2, 4]);
    expect(r.failures.map((f) => f.page)).toEqual([1, 3]);
    expect(r.failures[0]!.reason).toMatch(/^Page 1 took longer than 1 s to render and was stopped/);
  });

  it('keeps its threads warm between documents, and ends them all when asked: none is left spinning', async () => {
    const bytes = await pdfFile({ pages: 2, pageDefaults: { size: [72, 72], text: null } });
    await renderPdfPreviews(bytes, readOptions({ thumbnail: false }), outDir(), noBudget, { threads: 2 });
    // A thread still starting when the pages were done is handed back once it has started.
    await renderThreadsSettled();
    const warm = renderThreadsAlive();
    expect(warm).toBeGreaterThan(0);
    const r = await renderPdfPreviews(bytes, readOptions({ thumbnail: false }), outDir(), noBudget, { threads: 2 });
    expect(r.images).toHaveLength(2);
    expect(renderThreadsAlive()).toBe(warm);

    await endIdleRenderThreads();
    // A thread ends asynchronously after terminate(); the stuck ones above must be gone too.
    await vi.waitFor(() => expect(renderThreadsAlive()).toBe(0), { timeout: 5_000 });
  });

  it('refuses a PDF that cannot be opened, and its thread serves the next document', async () => {
    await endIdleRenderThreads();
    await vi.waitFor(() => expect(renderThreadsAlive()).toBe(0), { timeout: 5_000 });
    const locked = await pdfFile({ encrypt: { userPassword: 'u', ownerPassword: 'o' } });
    await expect(renderPdfPreviews(locked, readOptions({}), outDir(), noBudget, { threads: 1 })).rejects.toThrow(/password/);
    expect(renderThreadsAlive()).toBe(1);
    const r = await renderPdfPreviews(await pdfFile({ pages: 1 }), readOptions({ thumbnail: false }), outDir(), noBudget, { threads: 1 });
    expect(r.images).toHaveLength(1);
    expect(renderThreadsAlive()).toBe(1);
  });

  it('opens the file by its path in each thread, which reads only what its pages need of a large file', async () => {
    // 60 pages and a 40 MB stream no page uses: the three pages' objects are a few KB.
    const path = files.write(pagesAndUnusedStream(60, 40 * 1024 * 1024), 'pdf');
    const pool = await RenderPool.open(path, { threads: 1 });
    try {
      expect(pool.renderer).toBe('pdfium');
      const o = readOptions({ format: 'png' });
      const results = await pool.render([1, 2, 3].map((page) => ({ page, role: 'preview' as const, options: o })), outDir());
      expect(results.map((r) => r.image?.page)).toEqual([1, 2, 3]);
      const read = await pool.bytesRead();
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(64 * 1024);
    } finally {
      await pool.close();
    }
  });

  it('gives pdf.js a file PDFium refuses to open, and renders it', async () => {
    // No %PDF header: PDFium refuses it (FPDF_ERR_FORMAT); pdf.js reads it all the same.
    const bytes = Buffer.from(await buildPdf({ pages: [{ text: null }] }));
    bytes.write('%XYZ', 0);
    const path = files.write(bytes, 'pdf');
    const pool = await RenderPool.open(path, { threads: 1 });
    try {
      expect(pool.renderer).toBe('pdfjs');
      const [r] = await pool.render([{ page: 1, role: 'preview', options: readOptions({ format: 'png' }) }], outDir());
      const { data, info } = await sharp(r!.image!.path).raw().toBuffer({ resolveWithObject: true });
      const i = ((842 - 150) * info.width + 150) * info.channels;
      expect([...data.subarray(i, i + 3)]).toEqual([255, 0, 0]);
    } finally {
      await pool.close();
    }
    // Without the fallback the refusal stands (the benchmark measures PDFium alone this way).
    await expect(RenderPool.open(path, { threads: 1, fallback: false })).rejects.toThrow(/PDFium could not open the document \(error 3\)/);
  });
});
