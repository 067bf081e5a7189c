/**
 * Ranged reads of a file in object storage, through a cache of aligned blocks
 * shared by every engine thread reading that file (shared-source.ts). A
 * ranged GET costs a round trip (tens of milliseconds in S3), so small reads
 * are rounded out to a block and kept: the threads that open the same
 * document ask for the same trailer, cross-reference table and page objects.
 * Reads larger than a block (images, content streams) are fetched as asked
 * and not kept: they are read once, by the thread rendering that page.
 *
 * Two reads of the same block at once make one request.
 */
import type { RangeRead } from './shared-source';

export interface RangeCacheOptions {
  /** Default 256 KB. */
  blockBytes?: number;
  /** Default 32 MB. */
  maxBytes?: number;
}

export interface RangeCache {
  read: RangeRead;
  /** Starts fetching the blocks of a range that will be asked for (the file's tail, which every reader reads first). */
  prefetch(offset: number, length: number): void;
  /** Requests made to storage so far (tests, logs). */
  readonly requests: number;
  /** Bytes fetched from storage so far. */
  readonly bytesFetched: number;
}

/** `fetchRange(offset, length)` returns up to `length` bytes from `offset` (fewer at the end of the file). */
export function createRangeCache(size: number, fetchRange: RangeRead, options: RangeCacheOptions = {}): RangeCache {
  const B = options.blockBytes ?? 256 * 1024;
  const maxBlocks = Math.max(1, Math.floor((options.maxBytes ?? 32 * 1024 * 1024) / B));
  const blocks = new Map<number, Promise<Uint8Array>>();
  let requests = 0;
  let bytesFetched = 0;

  const fetch = async (offset: number, length: number): Promise<Uint8Array> => {
    requests++;
    const bytes = await fetchRange(offset, length);
    bytesFetched += bytes.length;
    return bytes;
  };

  const block = (index: number): Promise<Uint8Array> => {
    const hit = blocks.get(index);
    if (hit) {
      blocks.delete(index);
      blocks.set(index, hit);
      return hit;
    }
    const start = index * B;
    const pending = fetch(start, Math.min(B, size - start));
    // A failed fetch is not kept: the next read asks storage again.
    pending.catch(() => blocks.delete(index));
    blocks.set(index, pending);
    if (blocks.size > maxBlocks) blocks.delete(blocks.keys().next().value!);
    return pending;
  };

  const read: RangeRead = async (offset, length) => {
    const start = Math.max(0, Math.min(offset, size));
    const end = Math.min(size, start + Math.max(0, length));
    if (end <= start) return new Uint8Array(0);
    if (end - start > B) return fetch(start, end - start);
    const first = Math.floor(start / B);
    const last = Math.floor((end - 1) / B);
    const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => block(first + i)));
    if (parts.length === 1) return parts[0]!.subarray(start - first * B, end - first * B);
    const out = new Uint8Array(end - start);
    parts.forEach((part, i) => {
      const at = (first + i) * B;
      const from = Math.max(start, at);
      const to = Math.min(end, at + part.length);
      if (to > from) out.set(part.subarray(from - at, to - at), from - start);
    });
    return out;
  };

  return {
    read,
    prefetch(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const end = Math.min(size, start + Math.max(0, length));
      for (let b = Math.floor(start / B); b * B < end; b++) void block(b).catch(() => undefined);
    },
    get requests() {
      return requests;
    },
    get bytesFetched() {
      return bytesFetched;
    },
  };
}
