/**
 * Counts the bytes written to this process's stdout and stderr: in the local
 * runtime that is what the functions log (a Lambda's stdout and stderr go to
 * CloudWatch Logs), the worker threads' output included, since Node forwards
 * a thread's stdout and stderr through the parent's streams. The runtime's
 * own messages must go elsewhere (its `log` option) to stay out of the count.
 */
export interface LogBytes {
  bytes(): number;
  reset(): void;
  /** Writes to the real stderr, uncounted (for the caller's own messages while counting). */
  passThrough(text: string): void;
  /** Puts the streams' own write back. */
  stop(): void;
}

/** Starts counting; with `echo: false` (the default) the counted output is not shown. */
export function countLogBytes(opts: { echo?: boolean; streams?: NodeJS.WriteStream[] } = {}): LogBytes {
  const streams = opts.streams ?? [process.stdout, process.stderr];
  let bytes = 0;
  const originals = streams.map((stream) => {
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array, encodingOrCallback?: BufferEncoding | ((err?: Error | null) => void), callback?: (err?: Error | null) => void) => {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : 'utf8') : chunk.byteLength;
      if (opts.echo) return write.call(stream, chunk, encodingOrCallback as BufferEncoding, callback);
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (done) queueMicrotask(() => done());
      return true;
    }) as typeof stream.write;
    return { stream, write };
  });
  const stderr = originals.find((o) => o.stream === process.stderr);
  return {
    bytes: () => bytes,
    reset: () => void (bytes = 0),
    passThrough: (text) => void (stderr ? stderr.write.call(process.stderr, text) : process.stderr.write(text)),
    stop: () => originals.forEach(({ stream, write }) => (stream.write = write)),
  };
}
