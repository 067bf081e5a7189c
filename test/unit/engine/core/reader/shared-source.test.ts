/**
 * A ByteSource served by another thread (lambdas/engine/core/reader/shared-source.ts):
 * the reading thread blocks in Atomics.wait while this thread answers from an
 * asynchronous read, as the previews step answers render threads from storage.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SHARED_CHANNEL_DATA_BYTES, serveSharedSource, sharedChannel, type RangeRead } from '../../../../../lambdas/engine/core/reader/shared-source';

const BOOTSTRAP = new URL('../../../../../lambdas/engine/guard/thread-bootstrap.mjs', import.meta.url);
const READER = new URL('./support/shared-source-reader.ts', import.meta.url).href;

type Answer = { bytes?: Uint8Array; error?: { name: string; message: string }; failure?: string | null };

const started: Worker[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

/** A reading thread on a new channel served by `read`; `ask` sends it one read (or asks for its kept failure). */
async function readerThread(size: number, read: RangeRead, channel = sharedChannel()) {
  const server = serveSharedSource(channel, read, (e) => `Storage said: ${(e as Error).message}`);
  const worker = new Worker(BOOTSTRAP, { workerData: { moduleUrl: READER, channel, size } });
  started.push(worker);
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const ask = (message: { offset: number; length: number } | 'failure' | 'reopen') =>
    new Promise<Answer>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(message);
    });
  return { server, ask };
}

const file = Buffer.from(Array.from({ length: 5 * 1024 * 1024 + 123 }, (_, i) => (i * 7) % 253));
const fromFile: RangeRead = async (offset, length) => file.subarray(offset, offset + length);

describe('a source served by another thread', () => {
  it('reads the same bytes as the file: small reads, reads across blocks, a read larger than the channel, and the end', async () => {
    const asked: [number, number][] = [];
    const { server, ask } = await readerThread(file.length, async (offset, length) => {
      asked.push([offset, length]);
      return fromFile(offset, length);
    });
    for (const [offset, length] of [
      [0, 10],
      [65_530, 20],
      [1_000_000, SHARED_CHANNEL_DATA_BYTES * 2 + 17],
      [file.length - 50, 100],
    ] as const) {
      const { bytes } = await ask({ offset, length });
      // equals(): a deep comparison of megabytes would take the test's time.
      expect(Buffer.from(bytes!).equals(file.subarray(offset, offset + length))).toBe(true);
    }
    // The large read went over the channel in pieces no larger than its data area.
    expect(Math.max(...asked.map(([, n]) => n))).toBeLessThanOrEqual(SHARED_CHANNEL_DATA_BYTES);
    // Small reads are served from the reading thread's blocks: asking again asks nobody.
    const before = asked.length;
    expect(Buffer.from((await ask({ offset: 3, length: 4 })).bytes!)).toEqual(file.subarray(3, 7));
    expect(asked.length).toBe(before);
    server.stop();
    await server.stopped;
  });

  it("throws the serving side's sentence when storage fails, and keeps it as the source's failure", async () => {
    const { server, ask } = await readerThread(file.length, async () => {
      throw new Error('NoSuchKey');
    });
    expect((await ask({ offset: 0, length: 10 })).error).toEqual({ name: 'SharedSourceError', message: 'Storage said: NoSuchKey' });
    expect((await ask('failure')).failure).toBe('Storage said: NoSuchKey');
    server.stop();
  });

  it('serves its channel again for the next document: the earlier server ends, answers nothing, and its late stop() closes nothing', async () => {
    const channel = sharedChannel();
    const { server: first, ask } = await readerThread(file.length, fromFile, channel);
    expect(Buffer.from((await ask({ offset: 100, length: 10 })).bytes!)).toEqual(file.subarray(100, 110));
    const next = Buffer.alloc(file.length, 9);
    const second = serveSharedSource(channel, async (offset, length) => next.subarray(offset, offset + length));
    await first.stopped;
    first.stop();
    await ask('reopen');
    expect(Buffer.from((await ask({ offset: 100, length: 10 })).bytes!)).toEqual(next.subarray(100, 110));
    second.stop();
    await second.stopped;
  });

  it('answers nothing after stop(): a reader gets an error instead of waiting', async () => {
    const { server, ask } = await readerThread(file.length, fromFile);
    server.stop();
    await server.stopped;
    expect((await ask({ offset: 0, length: 10 })).error).toEqual({ name: 'SharedSourceError', message: 'The file could not be read: its reader was closed.' });
  });
});
