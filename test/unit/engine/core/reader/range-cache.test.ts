/**
 * Ranged reads of a stored file through shared blocks
 * (lambdas/engine/core/reader/range-cache.ts): what goes to storage, and what
 * is answered from what it already sent.
 */
import { describe, expect, it } from 'vitest';
import { createRangeCache } from '../../../../../lambdas/engine/core/reader/range-cache';

const file = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

function storage() {
  const asked: [number, number][] = [];
  let failing = false;
  return {
    asked,
    fail: (on: boolean) => (failing = on),
    read: async (offset: number, length: number) => {
      asked.push([offset, length]);
      await new Promise((r) => setTimeout(r, 1));
      if (failing) throw new Error('storage is down');
      return new Uint8Array(file.subarray(offset, offset + length));
    },
  };
}

describe('the range cache', () => {
  it('rounds small reads out to whole blocks and answers later reads in them without asking storage again', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000 });
    expect(Buffer.from(await cache.read(10, 20))).toEqual(file.subarray(10, 30));
    expect(Buffer.from(await cache.read(500, 800))).toEqual(file.subarray(500, 1300));
    expect(Buffer.from(await cache.read(9_990, 100))).toEqual(file.subarray(9_990));
    expect(s.asked).toEqual([
      [0, 1000],
      [1000, 1000],
      [9000, 1000],
    ]);
    expect([cache.requests, cache.bytesFetched]).toEqual([3, 3000]);
  });

  it('makes one request for two reads of the same block at once', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000 });
    await Promise.all([cache.read(0, 10), cache.read(20, 10), cache.read(990, 5)]);
    expect(s.asked).toEqual([[0, 1000]]);
  });

  it('fetches a read larger than a block as asked, and does not keep it', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000 });
    expect(Buffer.from(await cache.read(2_000, 3_000))).toEqual(file.subarray(2_000, 5_000));
    await cache.read(2_500, 10);
    expect(s.asked).toEqual([
      [2000, 3000],
      [2000, 1000],
    ]);
  });

  it('keeps at most maxBytes of blocks, dropping the least recently read', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000, maxBytes: 2000 });
    await cache.read(0, 1);
    await cache.read(1000, 1);
    await cache.read(0, 1); // block 0 is now the most recent
    await cache.read(2000, 1); // drops block 1
    await cache.read(0, 1);
    await cache.read(1000, 1);
    expect(s.asked.map(([o]) => o)).toEqual([0, 1000, 2000, 1000]);
  });

  it('does not keep a failed read: the next read asks storage again', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000 });
    s.fail(true);
    await expect(cache.read(0, 10)).rejects.toThrow('storage is down');
    s.fail(false);
    expect(Buffer.from(await cache.read(0, 10))).toEqual(file.subarray(0, 10));
    expect(s.asked).toEqual([
      [0, 1000],
      [0, 1000],
    ]);
  });

  it('prefetches the blocks of a range, so reading them later asks nobody', async () => {
    const s = storage();
    const cache = createRangeCache(file.length, s.read, { blockBytes: 1000 });
    cache.prefetch(8_500, 5_000);
    expect(Buffer.from(await cache.read(9_000, 1_000))).toEqual(file.subarray(9_000));
    expect(s.asked).toEqual([
      [8000, 1000],
      [9000, 1000],
    ]);
  });
});
