/**
 * Where each render thread of one pool reads the document from: the file at a
 * path, which every thread opens itself, or a file in storage read in ranges
 * (RangedFile). For the latter, this thread serves each render thread's reads
 * over a channel of its own (core/reader/shared-source.ts), all through one
 * cache of blocks (core/reader/range-cache.ts): the threads read the same
 * trailer, cross-reference table and page objects, and storage is asked once.
 */
import { createRangeCache, type RangeCache } from '../core/reader/range-cache';
import { serveSharedSource, sharedChannel, type RangeRead, type SharedSourceServer } from '../core/reader/shared-source';
import type { PageSource } from './page-thread-protocol';

/** A file read in ranges (object storage): its size, and a read of up to `length` bytes from `offset`. */
export interface RangedFile {
  size: number;
  read: RangeRead;
}

/** Every reader reads the file's end first (startxref, the cross-reference table, the trailer): fetched while the threads start. */
const TAIL_PREFETCH_BYTES = 256 * 1024;

/** Each render thread's channel, kept while the thread lives (see shared-source.ts on why). */
const channels = new WeakMap<object, SharedArrayBuffer>();

export class PageSources<Thread extends object> {
  private readonly ranges: RangeCache | undefined;
  private readonly servers = new Map<Thread, SharedSourceServer>();

  constructor(private readonly file: string | RangedFile) {
    if (typeof file !== 'string') {
      this.ranges = createRangeCache(file.size, file.read);
      this.ranges.prefetch(file.size - TAIL_PREFETCH_BYTES, TAIL_PREFETCH_BYTES);
    }
  }

  /** Where `thread` reads the document: the path, or a new channel served from the stored file. */
  for(thread: Thread): PageSource {
    if (typeof this.file === 'string') return { path: this.file };
    this.release(thread);
    let channel = channels.get(thread);
    if (!channel) channels.set(thread, (channel = sharedChannel()));
    this.servers.set(thread, serveSharedSource(channel, this.ranges!.read));
    return { channel, size: this.file.size };
  }

  /** `thread` has closed the document, or has ended: nothing reads through its channel any more. */
  release(thread: Thread): void {
    this.servers.get(thread)?.stop();
    this.servers.delete(thread);
  }

  /** Requests made to storage and bytes fetched, for a file read in ranges; null for a path. */
  get storageReads(): { requests: number; bytes: number } | null {
    return this.ranges ? { requests: this.ranges.requests, bytes: this.ranges.bytesFetched } : null;
  }
}
