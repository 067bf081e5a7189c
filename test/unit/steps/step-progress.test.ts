import { describe, expect, it } from 'vitest';
import type { StepPagesReport } from '../../../lambdas/domain/ports';
import { pageCounter } from '../../../lambdas/steps/step-progress';
import { captureLogLines } from '../../support/log-lines';

const STEP = { id: 'step_1', jobId: 'job_1', type: 'previews' as const };

/** A store that records what it is asked to write; each write settles when the test says so. */
function recordingStore(options: { fail?: boolean } = {}) {
  const writes: StepPagesReport[] = [];
  const pending: (() => void)[] = [];
  return {
    writes,
    settle: async () => {
      while (pending.length > 0) pending.shift()!();
      await new Promise((r) => setImmediate(r));
    },
    recordStepPages: (_jobId: string, _stepId: string, report: StepPagesReport) => {
      writes.push(report);
      return new Promise<boolean>((resolve, reject) => pending.push(() => (options.fail ? reject(new Error('throttled')) : resolve(true))));
    },
  };
}

describe('pageCounter', () => {
  it('writes the first count at once, so the total shows as soon as it is known', () => {
    const store = recordingStore();
    const count = pageCounter(store, STEP, 'main', { now: () => 0 });
    count(0, 120);
    expect(store.writes).toEqual([{ part: 'main', done: 0, total: 120 }]);
  });

  it('writes at most once per interval however many pages finish, and the last count on flush', async () => {
    const store = recordingStore();
    let now = 0;
    const count = pageCounter(store, STEP, 'batch-2', { now: () => now, intervalMs: 2000 });
    for (let page = 1; page <= 500; page++) {
      now += 10; // a page every 10 ms: 5 s in all
      count(page);
      await store.settle();
    }
    // At 10 ms, then every 2 s: three writes while 500 pages render, and the last on flush.
    expect(store.writes.map((w) => w.done)).toEqual([1, 201, 401]);
    const flushed = count.flush();
    await store.settle();
    await flushed;
    expect(store.writes.at(-1)).toEqual({ part: 'batch-2', done: 500 });
    expect(store.writes).toHaveLength(4);
  });

  it('keeps one write in flight: counts arriving meanwhile wait for the next chance', async () => {
    const store = recordingStore();
    let now = 0;
    const count = pageCounter(store, STEP, 'main', { now: () => now, intervalMs: 100 });
    count(1, 10);
    now = 1000;
    count(5);
    count(6);
    expect(store.writes).toHaveLength(1);
    const flushed = count.flush();
    await store.settle();
    await store.settle();
    await flushed;
    expect(store.writes).toEqual([{ part: 'main', done: 1, total: 10 }, { part: 'main', done: 6, total: 10 }]);
  });

  it('writes nothing more on flush when the last count was written', async () => {
    const store = recordingStore();
    const count = pageCounter(store, STEP, 'main', { now: () => 0 });
    count(3, 3);
    await store.settle();
    await count.flush();
    expect(store.writes).toHaveLength(1);
  });

  it('ignores a count lower than one it has (pages reported out of order)', async () => {
    const store = recordingStore();
    let now = 0;
    const count = pageCounter(store, STEP, 'main', { now: () => now, intervalMs: 10 });
    count(4, 9);
    await store.settle();
    now = 100;
    count(2);
    expect(store.writes.map((w) => w.done)).toEqual([4]);
  });

  it('never fails the step when a write fails: the failure is logged and the count kept for the next write', async () => {
    const store = recordingStore({ fail: true });
    const log = captureLogLines();
    try {
      const count = pageCounter(store, STEP, 'main', { now: () => 0 });
      count(1, 2);
      await store.settle();
      count(2);
      const flushed = count.flush();
      await store.settle();
      await expect(flushed).resolves.toBeUndefined();
    } finally {
      log.restore();
    }
    expect(store.writes.map((w) => w.done)).toEqual([1, 2]);
    expect(log.lines()[0]).toMatchObject({ level: 'WARN', message: expect.stringContaining('page count not written'), stepId: STEP.id });
  });

  it('treats a store that throws at once as a failed write, never throwing into the engine that counts', async () => {
    const log = captureLogLines();
    try {
      const throwing = { recordStepPages: (): Promise<boolean> => { throw new TypeError('no store'); } };
      const count = pageCounter(throwing, STEP, 'main', { now: () => 0 });
      expect(() => count(1, 3)).not.toThrow();
      await count.flush();
    } finally {
      log.restore();
    }
    expect(log.lines()[0]).toMatchObject({ level: 'WARN', error: { name: 'TypeError', message: 'no store' } });
  });
});
