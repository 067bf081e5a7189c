/**
 * What crosses between the render pool (render-pool.ts) and a render thread
 * (page-thread.ts). A module of its own, with type imports only, so the calling side
 * can name the thread and type its messages without loading what the thread
 * loads (PDFium, pdfjs, canvas), which only the threads need.
 */
import type { PreviewOptions } from './options';
import type { PreviewImage } from './types';

/** The thread's name in workerData, distinct from every guarded engine's. */
export const PAGE_THREAD = 'previews-pdf';

/** PDFium renders; pdf.js is the fallback for files PDFium refuses to open (and the benchmark's comparison). */
export type Renderer = 'pdfium' | 'pdfjs';

/**
 * Where a thread reads the document from: a file on disk, or the calling
 * thread, which serves reads from storage over a channel of its own for each
 * thread (core/reader/shared-source.ts). Either way each thread reads only
 * what it needs; nothing is copied between threads.
 */
export type PageSource = { path: string } | { channel: SharedArrayBuffer; size: number };

export type PageThreadInput =
  | {
      op: 'open';
      source: PageSource;
      /** Default pdfium. */
      renderer?: Renderer;
      /** Whether a file PDFium refuses goes to pdf.js; default true (the benchmark turns it off to measure PDFium alone). */
      fallback?: boolean;
      /** Tests only: pages on which the thread spins without end, as a pathological page would. */
      stallPages?: number[];
    }
  | { op: 'render'; page: number; role: PreviewImage['role']; options: PreviewOptions; outDir: string }
  /** Tests: how many bytes of the file PDFium has read so far (null under pdf.js). */
  | { op: 'bytes-read' }
  /** The document is done with; the thread waits, warm, for the next one. */
  | { op: 'close' };

export type PageThreadOutput =
  | { op: 'open'; numPages: number; renderer: Renderer }
  | { op: 'render'; ok: true; image: PreviewImage; threadId: number }
  | { op: 'render'; ok: false; reason: string; threadId: number }
  | { op: 'bytes-read'; bytes: number | null }
  /** `retire`: the thread holds too much memory to be kept warm. */
  | { op: 'close'; retire: boolean };
