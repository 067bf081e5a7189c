import { describe, expect, it } from 'vitest';
import { percentile, rssLevelsOff } from '../../bench/support/soak-summary';

describe('bench:soak figures', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('calls memory level when the last third stays near the middle third’s peak, not when it keeps climbing', () => {
    expect(rssLevelsOff([200, 600, 650, 640, 660, 655]).level).toBe(true);
    expect(rssLevelsOff([200, 400, 600, 800, 1000, 1200]).level).toBe(false);
    expect(rssLevelsOff([300, 300]).level).toBe(true);
    expect(rssLevelsOff([300, 900]).level).toBe(false);
  });
});
