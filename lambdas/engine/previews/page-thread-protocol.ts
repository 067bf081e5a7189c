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

export type PageThreadInput =
  | {
      op: 'open';
      /** The file on disk; each thread reads what it needs of it, nothing is copied between threads. */
      path: string;
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
