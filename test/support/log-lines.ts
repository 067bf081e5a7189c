/**
 * The logger's lines as a test sees them. The logger (lambdas/observability/logger.ts)
 * writes one JSON object a line straight to stdout (info) and stderr (warn,
 * error), not through `console`, and worker threads' output reaches this
 * process's stdout the same way; so lines are taken where they are written.
 * A captured line is kept (and not printed); anything else written meanwhile
 * passes through.
 */
import { vi, type MockInstance } from 'vitest';

export type LogLine = Record<string, unknown> & { level: string; message: string };

export interface CapturedLog {
  /** Every line so far, parsed, in the order written. */
  lines(): LogLine[];
  /** Every line so far, as written. */
  text(): string;
  /** Stops capturing (and drops a partial last line). */
  restore(): void;
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

const isLogLine = (text: string): boolean => text.startsWith('{') && text.includes('"service":');

export function captureLogLines(): CapturedLog {
  const raw: string[] = [];
  const spies: MockInstance[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as Write;
    let partial = '';
    const spy = vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      const text = partial + (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const pieces = text.split('\n');
      partial = pieces.pop() ?? '';
      const passed = pieces.filter((line) => {
        if (!isLogLine(line)) return true;
        raw.push(line);
        return false;
      });
      if (passed.length > 0) original(`${passed.join('\n')}\n`);
      // Only what may be the start of a log line waits for its end.
      if (partial !== '' && !partial.startsWith('{')) {
        original(partial);
        partial = '';
      }
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (callback) queueMicrotask(callback);
      return true;
    }) as never);
    spies.push(spy);
  }
  return {
    lines: () => raw.map((line) => JSON.parse(line) as LogLine),
    text: () => raw.join('\n'),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
