/**
 * Where the lazy reader gets a PDF's bytes from: a file on disk, read with
 * positional reads only where an object or stream is asked for, or bytes
 * already in memory. The reader never holds the whole file unless a caller
 * handed it the whole file.
 *
 * Reads are synchronous (fs.readSync): pdf-lib's object model looks objects up
 * synchronously, and the engines run in worker threads that do nothing else.
 *
 * What `read` returns may be a view of the source's own memory (the in-memory
 * bytes, or a cached block of the file): callers must not modify it.
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

const BLOCK = 64 * 1024;
/** 64 blocks: 4 MB of recently read file, enough for the neighbourhood of the objects being parsed. */
const CACHED_BLOCKS = 64;

/**
 * A file read through its descriptor. Object headers, dictionaries and
 * cross-reference sections are small and read many at a time from the same
 * region, so small reads are served from a few cached 64 KB blocks; a read
 * larger than a few blocks (stream data) goes straight to the file.
 */
/** A source dropped without close() (a document simply forgotten) still gives its descriptor back. */
const unclosed = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

export class FileSource implements ByteSource {
  readonly size: number;
  private fd: number | null;
  private readonly blocks = new Map<number, Uint8Array>();

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
    unclosed.register(this, this.fd, this);
  }

  read(offset: number, length: number): Uint8Array {
    const start = Math.max(0, Math.min(offset, this.size));
    const end = Math.min(this.size, start + Math.max(0, length));
    if (end <= start) return new Uint8Array(0);
    const first = Math.floor(start / BLOCK);
    const last = Math.floor((end - 1) / BLOCK);
    if (first === last) {
      const block = this.block(first);
      return block.subarray(start - first * BLOCK, end - first * BLOCK);
    }
    if (last - first >= 4) return this.direct(start, end - start);
    const out = new Uint8Array(end - start);
    for (let b = first; b <= last; b++) {
      const block = this.block(b);
      const from = Math.max(start, b * BLOCK);
      const to = Math.min(end, b * BLOCK + block.length);
      out.set(block.subarray(from - b * BLOCK, to - b * BLOCK), from - start);
    }
    return out;
  }

  close(): void {
    if (this.fd !== null) {
      unclosed.unregister(this);
      closeSync(this.fd);
    }
    this.fd = null;
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
    const block = this.direct(index * BLOCK, BLOCK);
    this.blocks.set(index, block);
    if (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    return block;
  }

  private direct(offset: number, length: number): Uint8Array {
    if (this.fd === null) throw new Error('FileSource: read after close');
    const n = Math.max(0, Math.min(length, this.size - offset));
    const out = new Uint8Array(n);
    let done = 0;
    while (done < n) {
      const got = readSync(this.fd, out, done, n - done, offset + done);
      if (got <= 0) break;
      done += got;
    }
    return done === n ? out : out.subarray(0, done);
  }
}
