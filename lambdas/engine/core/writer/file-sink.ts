/**
 * A file written front to back in large writes, counting bytes so a writer
 * knows each object's offset. Small objects are gathered into one buffer and
 * written together; a large one (an image stream) is written as it comes, so
 * the writer never holds more than one object and one buffer, whatever the
 * file's size.
 */
import { open, type FileHandle } from 'node:fs/promises';

const GATHER_BYTES = 1 << 20;

export class FileSink {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Bytes written so far, including those still gathered: the next write's offset. */
  offset: number;

  private constructor(private readonly handle: FileHandle, startOffset: number) {
    this.offset = startOffset;
  }

  /** A new file (truncated when it exists). */
  static async create(path: string): Promise<FileSink> {
    return new FileSink(await open(path, 'w'), 0);
  }

  /** An existing file, written after its last byte (an incremental update). */
  static async append(path: string): Promise<FileSink> {
    const handle = await open(path, 'a');
    const { size } = await handle.stat();
    return new FileSink(handle, size);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.offset += bytes.length;
    if (bytes.length >= GATHER_BYTES) {
      await this.flush();
      await this.writeAll(bytes);
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= GATHER_BYTES) await this.flush();
  }

  writeText(text: string): Promise<void> {
    return this.write(Buffer.from(text, 'latin1'));
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.handle.close();
    }
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.writeAll(chunk);
  }

  private async writeAll(bytes: Uint8Array): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done);
      done += bytesWritten;
    }
  }
}
