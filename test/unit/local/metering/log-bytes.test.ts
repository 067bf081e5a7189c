import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { countLogBytes } from '../../../../local/metering/log-bytes';

describe('counting the bytes the functions log', () => {
  it('counts what is written to the streams, in UTF-8 bytes, without showing it', () => {
    const shown: string[] = [];
    const stream = { write: (chunk: string) => void shown.push(chunk) } as unknown as NodeJS.WriteStream;
    const logs = countLogBytes({ streams: [stream] });
    stream.write('{"level":"info"}\n');
    stream.write('é\n');
    expect(logs.bytes()).toBe(17 + 3);
    expect(shown).toEqual([]);
    logs.reset();
    expect(logs.bytes()).toBe(0);
    logs.stop();
    stream.write('after\n');
    expect(shown).toEqual(['after\n']);
  });

  it("counts a worker thread's output, which Node forwards through this process's stdout", async () => {
    const logs = countLogBytes({ streams: [process.stdout] });
    try {
      const worker = new Worker('console.log("0123456789")', { eval: true });
      await new Promise((resolve) => worker.once('exit', resolve));
      // The thread's stdout reaches ours asynchronously after it exits.
      for (let i = 0; i < 50 && logs.bytes() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(logs.bytes()).toBe(11);
    } finally {
      logs.stop();
    }
  });
});
