/**
 * What crosses between the render pool (render-pool.ts) and a render thread
 * (page-thread.ts). A module of its own, with type imports only, so the calling side
 * can name the thread and type its messages without loading what the thread
 * loads (pdfjs, canvas), which only the threads need.
 */
import type { PreviewOptions } from './options';
import type { PreviewImage } from './types';

/** The thread's name in workerData, distinct from every guarded engine's. */
export const PAGE_THREAD = 'previews-pdf';

export type PageThreadInput =
  | {
      op: 'open';
      /** Shared with the other render threads: the bytes are not copied per thread. */
      bytes: SharedArrayBuffer;
      /** Tests only: pages on which the thread spins without end, as a pathological page would. */
      stallPages?: number[];
    }
  | { op: 'render'; page: number; role: PreviewImage['role']; options: PreviewOptions; outDir: string }
  /** The document is done with; the thread waits, warm, for the next one. */
  | { op: 'close' };

export type PageThreadOutput =
  | { op: 'open'; numPages: number }
  | { op: 'render'; ok: true; image: PreviewImage; threadId: number }
  | { op: 'render'; ok: false; reason: string; threadId: number }
  | { op: 'close' };
