import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportEngineProgress, setEngineProgressSink } from '../../../../lambdas/engine/guard/engine-progress';

afterEach(() => {
  setEngineProgressSink(undefined);
  vi.useRealTimers();
});

describe('reportEngineProgress', () => {
  it('passes the first and the last report at once and those between at most every 250 ms', () => {
    vi.useFakeTimers({ now: 0 });
    const sent: number[] = [];
    setEngineProgressSink((done) => sent.push(done));
    for (let page = 0; page <= 10_000; page++) {
      reportEngineProgress(page, 10_000);
      vi.advanceTimersByTime(1); // a page a millisecond: 10 s in all
    }
    expect(sent[0]).toBe(0);
    expect(sent.at(-1)).toBe(10_000);
    // 10 s at one report per 250 ms: about 40, not 10,000.
    expect(sent.length).toBeGreaterThan(35);
    expect(sent.length).toBeLessThan(45);
  });

  it('goes nowhere outside a guarded call', () => {
    expect(() => reportEngineProgress(1, 2)).not.toThrow();
  });
});
