import { describe, expect, it } from 'vitest';
import { FileSource, MemorySource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { tempFiles } from '../../temp-files';

const files = tempFiles('byte-source');

describe('byte sources', () => {
  const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));

  it('read the same bytes from a file as from memory, across block boundaries and at the end', () => {
    const file = new FileSource(files.write(bytes));
    const memory = new MemorySource(bytes);
    for (const [offset, length] of [
      [0, 10],
      [65_530, 20],
      [60_000, 16_384],
      [60_000, 30_000],
      [130_000, 70_000],
      [290_000, 10_000],
      [100_000, 200_000],
      [299_990, 100],
      [400_000, 10],
    ] as const) {
      expect(Buffer.from(file.read(offset, length))).toEqual(Buffer.from(memory.read(offset, length)));
    }
    expect(file.size).toBe(bytes.length);
    file.close();
    expect(() => file.read(0, 10)).toThrow();
  });

  it("reuses a closed file's blocks for the next file, which still reads its own bytes", () => {
    const first = new FileSource(files.write(bytes));
    const view = first.read(1000, 100);
    first.close();
    const other = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 253));
    const second = new FileSource(files.write(other));
    const read = second.read(1000, 100);
    // The block that served the first file serves the second: its bytes are now the second file's.
    expect(read.buffer).toBe(view.buffer);
    expect(Buffer.from(read).equals(other.subarray(1000, 1100))).toBe(true);
    for (const [offset, length] of [
      [0, 70_000],
      [65_000, 1000],
      [200_000, 99_000],
    ] as const) {
      expect(Buffer.from(second.read(offset, length)).equals(other.subarray(offset, offset + length))).toBe(true);
    }
    second.close();
  });

  it('serves memory reads as views, without copying', () => {
    const memory = new MemorySource(bytes);
    expect(memory.read(10, 5).buffer).toBe(bytes.buffer);
  });
});
