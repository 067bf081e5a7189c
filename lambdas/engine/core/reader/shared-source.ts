/**
 * A ByteSource served by another thread: the engine thread reads synchronously
 * (PDFium's file access and pdf-lib's object lookups cannot wait for a
 * promise), the serving thread reads asynchronously (a ranged GET from object
 * storage). Between them, one SharedArrayBuffer per engine thread: the engine
 * thread writes a request into it and blocks in Atomics.wait; the serving
 * thread, woken by Atomics.waitAsync, fetches the range, copies it in and
 * wakes the engine thread.
 *
 * This is how the previews step renders pages 1–3 of a 500 MB file without
 * downloading it: the render threads read only the blocks their pages need
 * (render-pool.ts serves them from the step's storage).
 *
 * The channel's layout: four Int32 slots (state, requested length, answered
 * length, the generation of the server that owns it), the requested offset as
 * a Float64 (files of more than 2 GiB), then the data area. A failed read
 * answers with its message in the data area, and the engine thread throws
 * SharedSourceError with it.
 *
 * A channel is kept for its engine thread's life and served again for each
 * document (page-sources.ts): one new 2 MB channel per document and thread
 * was never freed, since an engine thread kept warm with a small heap hardly
 * ever collects its garbage and a SharedArrayBuffer lives while any thread
 * holds it. The previews function grew by 4 MB a job (bench:soak, issue 16).
 * Each server takes the channel over with a new generation; an earlier
 * server, still waiting or still reading, then answers nothing and ends.
 */
import { BlockCachedSource } from './byte-source';

const IDLE = 0;
const REQUEST = 1;
const DONE = 2;
const FAILED = 3;
const CLOSED = 4;

const HEADER_BYTES = 32;
/** The data area: a read larger than this is made in several requests. */
export const SHARED_CHANNEL_DATA_BYTES = 2 * 1024 * 1024;

/** 64 KB blocks, as a file's (byte-source.ts), 64 of them per engine thread. */
const BLOCK = 64 * 1024;
const CACHED_BLOCKS = 64;

/** How long an engine thread waits for one answer before giving up on the read. */
const ANSWER_TIMEOUT_MS = 120_000;

/** A read the serving thread could not make (storage failed, or the channel was closed). */
export class SharedSourceError extends Error {
  override name = 'SharedSourceError';
}

/** A new channel, for one engine thread's life, served by serveSharedSource for each document in turn. */
export function sharedChannel(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + SHARED_CHANNEL_DATA_BYTES);
}

const views = (channel: SharedArrayBuffer) => ({
  slots: new Int32Array(channel, 0, 4),
  offset: new Float64Array(channel, 16, 1),
  data: new Uint8Array(channel, HEADER_BYTES),
});

/** The engine thread's side: synchronous reads, each a request answered by the serving thread. */
export class SharedSource extends BlockCachedSource {
  private readonly v: ReturnType<typeof views>;
  /** The first failure, kept: a caller that sees only "the renderer refused the file" can ask why. */
  failure: SharedSourceError | undefined;
  private closed = false;

  constructor(channel: SharedArrayBuffer, size: number) {
    super(size, BLOCK, CACHED_BLOCKS);
    this.v = views(channel);
  }

  close(): void {
    this.closed = true;
    this.forgetBlocks();
  }

  protected fetch(offset: number, length: number): Uint8Array {
    if (this.closed) throw new Error('SharedSource: read after close');
    const n = Math.max(0, Math.min(length, this.size - offset));
    const out = new Uint8Array(n);
    let done = 0;
    while (done < n) {
      const got = this.request(offset + done, Math.min(n - done, SHARED_CHANNEL_DATA_BYTES), out.subarray(done));
      if (got <= 0) break;
      done += got;
    }
    return done === n ? out : out.subarray(0, done);
  }

  /** One round trip: the bytes land in `into`; their count is returned. */
  private request(offset: number, length: number, into: Uint8Array): number {
    const { slots, data } = this.v;
    this.v.offset[0] = offset;
    slots[1] = length;
    if (Atomics.compareExchange(slots, 0, IDLE, REQUEST) !== IDLE) throw this.fail('The file could not be read: its reader was closed.');
    Atomics.notify(slots, 0);
    const until = Date.now() + ANSWER_TIMEOUT_MS;
    while (Atomics.load(slots, 0) === REQUEST) {
      const left = until - Date.now();
      if (left <= 0 || Atomics.wait(slots, 0, REQUEST, left) === 'timed-out') {
        throw this.fail(`The file could not be read: storage did not answer within ${ANSWER_TIMEOUT_MS / 1000} s.`);
      }
    }
    const state = Atomics.load(slots, 0);
    const answered = slots[2]!;
    if (state === DONE) {
      into.set(data.subarray(0, answered));
      Atomics.compareExchange(slots, 0, DONE, IDLE);
      return answered;
    }
    if (state === FAILED) {
      const message = new TextDecoder().decode(data.subarray(0, answered));
      Atomics.compareExchange(slots, 0, FAILED, IDLE);
      throw this.fail(message);
    }
    throw this.fail('The file could not be read: its reader was closed.');
  }

  private fail(message: string): SharedSourceError {
    const e = new SharedSourceError(message);
    this.failure ??= e;
    return e;
  }
}

/** What the serving thread reads from: a range of the file, asynchronously. */
export type RangeRead = (offset: number, length: number) => Promise<Uint8Array>;

export interface SharedSourceServer {
  /** Answers no more requests; an engine thread waiting or asking later gets an error. */
  stop(): void;
  /** Settles when the server has stopped. */
  stopped: Promise<void>;
}

/**
 * Answers one channel's requests, one at a time, until stop(). `describe`
 * turns a failed read into the sentence the engine thread throws.
 */
export function serveSharedSource(channel: SharedArrayBuffer, read: RangeRead, describe: (e: unknown) => string = errorText): SharedSourceServer {
  const { slots, offset, data } = views(channel);
  // All servers of a channel run on one thread (the one serving storage), so this check and the
  // writes after it cannot interleave with another server's.
  const generation = (Atomics.load(slots, 3) + 1) | 0;
  Atomics.store(slots, 3, generation);
  Atomics.store(slots, 0, IDLE);
  // An earlier server still waiting wakes, sees it is no longer current, and ends.
  Atomics.notify(slots, 0);
  const current = () => Atomics.load(slots, 3) === generation;
  const answer = (state: number, bytes: Uint8Array, asked: number): void => {
    // A request of the channel's next document is not this server's to answer.
    if (!current()) return;
    const n = Math.min(bytes.length, asked);
    data.set(bytes.subarray(0, n));
    slots[2] = n;
    // Only a request still pending is answered: the channel may have been closed meanwhile.
    if (Atomics.compareExchange(slots, 0, REQUEST, state) === REQUEST) Atomics.notify(slots, 0);
  };
  const loop = async (): Promise<void> => {
    for (;;) {
      const state = Atomics.load(slots, 0);
      if (state === CLOSED || !current()) return;
      if (state !== REQUEST) {
        const waiting = waitAsync(slots, 0, state);
        if (waiting.async) await waiting.value;
        continue;
      }
      const length = Math.min(slots[1]!, data.length);
      try {
        answer(DONE, await read(offset[0]!, length), length);
      } catch (e) {
        answer(FAILED, new TextEncoder().encode(describe(e)), data.length);
      }
    }
  };
  return {
    stop() {
      // A server stopped late must not close the channel under the next one.
      if (!current()) return;
      Atomics.store(slots, 0, CLOSED);
      Atomics.notify(slots, 0);
    },
    stopped: loop(),
  };
}

/** Atomics.waitAsync (Node 16+; not in the TypeScript lib this project targets). */
const waitAsync = (Atomics as unknown as { waitAsync(view: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string } }).waitAsync.bind(Atomics);

function errorText(e: unknown): string {
  return `The file could not be read from storage (${e instanceof Error ? e.message : String(e)}).`;
}
