/**
 * Where the lazy reader gets a PDF's bytes from: a file on disk, read with
 * positional reads only where an object or stream is asked for, bytes
 * already in memory, or another thread that reads them from storage
 * (shared-source.ts). The reader never holds the whole file unless a caller
 * handed it the whole file.
 *
 * Reads are synchronous (fs.readSync, or a wait on the serving thread):
 * pdf-lib's object model and PDFium's file access look bytes up synchronously,
 * and the engines run in worker threads that do nothing else.
 *
 * What `read` returns may be a view of the source's own memory (the in-memory
 * bytes, or a cached block of the file): callers must not modify it, and a
 * caller that keeps bytes after the source is closed copies them first (the
 * blocks of a closed file are reused for the next file, see FileSource).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the source). */
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

export class MemorySource implements ByteSource {
  readonly size: number;
  constructor(readonly bytes: Uint8Array) {
    this.size = bytes.length;
  }
  read(offset: number, length: number): Uint8Array {
    const start = Math.max(0, Math.min(offset, this.size));
    return this.bytes.subarray(start, Math.min(this.size, start + Math.max(0, length)));
  }
  close(): void {}
}

/**
 * Each cached block also holds the first bytes of the next one, so a small read
 * that starts near the end of a block (an object's 16 KB parse window, one in
 * four of them with 64 KB blocks) is a view of one block rather than a copy
 * joined from two.
 */
const OVERLAP = 16 * 1024;

/**
 * A source whose reads are costly one by one (a system call, a request to
 * another thread): object headers, dictionaries and cross-reference sections
 * are small and read many at a time from the same region, so small reads are
 * served from a few cached blocks (each with OVERLAP bytes of its successor);
 * a read larger than a few blocks (stream data) is fetched as it is.
 * Subclasses say how a range is fetched.
 */
export abstract class BlockCachedSource implements ByteSource {
  private readonly blocks = new Map<number, Uint8Array>();

  protected constructor(
    readonly size: number,
    private readonly blockBytes: number,
    private readonly cachedBlocks: number,
  ) {}

  /** Up to `length` bytes from `offset`, as a new array the caller may keep. */
  protected abstract fetch(offset: number, length: number): Uint8Array;

  read(offset: number, length: number): Uint8Array {
    const start = Math.max(0, Math.min(offset, this.size));
    const end = Math.min(this.size, start + Math.max(0, length));
    if (end <= start) return new Uint8Array(0);
    const B = this.blockBytes;
    const first = Math.floor(start / B);
    const last = Math.floor((end - 1) / B);
    if (end - first * B <= B + OVERLAP) {
      const block = this.block(first);
      return block.subarray(start - first * B, end - first * B);
    }
    if (last - first >= 4) return this.fetch(start, end - start);
    const out = new Uint8Array(end - start);
    for (let b = first; b <= last; b++) {
      const block = this.block(b);
      const from = Math.max(start, b * B);
      const to = Math.min(end, (b + 1) * B, b * B + block.length);
      out.set(block.subarray(from - b * B, to - b * B), from - start);
    }
    return out;
  }

  abstract close(): void;

  /** Forgets the cached blocks, handing each to `release` (FileSource reuses them). */
  protected forgetBlocks(release?: (block: Uint8Array) => void): void {
    if (release) for (const block of this.blocks.values()) release(block);
    this.blocks.clear();
  }

  private block(index: number): Uint8Array {
    const hit = this.blocks.get(index);
    if (hit) {
      // Map order is insertion order: re-inserting keeps the most recent last.
      this.blocks.delete(index);
      this.blocks.set(index, hit);
      return hit;
    }
    const block = this.fetch(index * this.blockBytes, this.blockBytes + OVERLAP);
    this.blocks.set(index, block);
    if (this.blocks.size > this.cachedBlocks) this.blocks.delete(this.blocks.keys().next().value!);
    return block;
  }
}

/** A source dropped without close() (a document simply forgotten) still gives its descriptor back. */
const unclosed = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/**
 * 64 KB blocks (80 KB with their overlap), 200 of them: up to 16 MB of recently
 * read file. Opening a document walks every page object (page-tree.ts) and the
 * content walk then reads the file again from the start; least-recently-used
 * blocks under such a second pass each fall out just before they are needed,
 * so a cache smaller than the file read every block twice. At 16 MB most files
 * are read once (the stream cache, stream-data.ts, allows 64 MB); larger ones
 * still work, reading twice.
 */
const FILE_BLOCK = 64 * 1024;
const FILE_CACHED_BLOCKS = 200;

/**
 * Blocks of closed files, reused by the next file this thread opens. Fresh
 * memory is costly where the engines run (each first touch of a page is a
 * fault in the VM: about 4 ms per MB on these machines), and a preflight of
 * a 6 MB file read 8 MB of blocks, a tenth of its time in `bench:preflight`.
 * Only blocks of a closed file come here: a view of an evicted block may still
 * be in use while its document is open. At most one file's cache is kept.
 */
const spareBlocks: Uint8Array[] = [];
const BLOCK_WITH_OVERLAP = FILE_BLOCK + OVERLAP;
const keepSpare = (block: Uint8Array): void => {
  if (block.byteLength === BLOCK_WITH_OVERLAP && block.buffer.byteLength === BLOCK_WITH_OVERLAP && spareBlocks.length < FILE_CACHED_BLOCKS) spareBlocks.push(block);
};

/** A file on disk, read through its descriptor with positional reads. */
export class FileSource extends BlockCachedSource {
  private fd: number | null;

  constructor(path: string) {
    const fd = openSync(path, 'r');
    super(fstatSync(fd).size, FILE_BLOCK, FILE_CACHED_BLOCKS);
    this.fd = fd;
    unclosed.register(this, fd, this);
  }

  close(): void {
    if (this.fd !== null) {
      unclosed.unregister(this);
      closeSync(this.fd);
    }
    const open = this.fd !== null;
    this.fd = null;
    this.forgetBlocks(open ? keepSpare : undefined);
  }

  protected fetch(offset: number, length: number): Uint8Array {
    if (this.fd === null) throw new Error('FileSource: read after close');
    const n = Math.max(0, Math.min(length, this.size - offset));
    const out = n === BLOCK_WITH_OVERLAP ? (spareBlocks.pop() ?? uninitialised(n)) : uninitialised(n);
    let done = 0;
    while (done < n) {
      const got = readSync(this.fd, out, done, n - done, offset + done);
      if (got <= 0) break;
      done += got;
    }
    return done === n ? out : out.subarray(0, done);
  }
}

/**
 * `n` bytes left as the allocator gives them, for FileSource.fetch, which hands
 * out only the part the file filled: zero-filling every block and stream read
 * first was a measurable share of reading. A plain Uint8Array rather than the
 * Buffer, so that `slice()` copies as callers expect; allocUnsafeSlow, so it
 * owns its ArrayBuffer rather than a slice of Node's shared pool.
 */
function uninitialised(n: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(n).buffer, 0, n);
}
