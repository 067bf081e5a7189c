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

  it('calls memory level when the second half has no upward trend, whatever its noise, and not when it keeps climbing', () => {
    expect(rssLevelsOff([200, 600, 650, 640, 660, 655]).level).toBe(true);
    expect(rssLevelsOff([200, 400, 600, 800, 1000, 1200]).level).toBe(false);
    // Warm-up spike, then GC noise of ±4 % around 1000 MB: level.
    expect(rssLevelsOff([1500, 1000, 1040, 960, 1030, 970, 1040, 960, 1020, 980]).level).toBe(true);
    // A 20-minute run of this issue that climbed 35 MB a minute: not level, though its last
    // third's peak was within 15 % of the middle third's.
    const climbing = [1574, 1015, 1058, 1072, 1130, 1166, 1206, 1256, 1281, 1348, 1373, 1394, 1433, 1471, 1508, 1538, 1579, 1607, 1651, 1691];
    const verdict = rssLevelsOff(climbing);
    expect(verdict.level).toBe(false);
    expect(verdict.trendMb).toBeGreaterThan(250);
    expect(rssLevelsOff([300, 300]).level).toBe(true);
    expect(rssLevelsOff([300, 900]).level).toBe(false);
  });
});
