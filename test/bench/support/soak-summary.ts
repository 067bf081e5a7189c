/**
 * The figures of `npm run bench:soak`, from what the load client recorded:
 * latency percentiles, and whether the runtime's memory levelled off. Pure,
 * so it is unit-tested (test/unit/bench/soak-summary.test.ts).
 */

/** The p-th percentile (0–100) by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** How much the trend of the run's second half may add, as a share of its mean, and still count as level. */
export const LEVEL_TOLERANCE = 0.05;

export interface RssVerdict {
  level: boolean;
  /** The second half's least-squares trend from its first sample to its last, MB. */
  trendMb: number;
  /** The second half's mean, MB. */
  meanMb: number;
}

/**
 * Memory levels off when the second half of the run has no upward trend worth
 * the name: the least-squares line through its samples rises by at most
 * LEVEL_TOLERANCE of their mean. The first half is warm-up (workers start,
 * caches fill). A trend, not peaks: comparing the peaks of neighbouring
 * thirds let a steady 35 MB a minute pass as level over 20 minutes (1471 →
 * 1691 MB is within 15 %), while GC noise of a few percent does not move a
 * fitted line much. Needs at least three samples; fewer are judged level only
 * when they do not grow at all.
 */
export function rssLevelsOff(samplesMb: readonly number[]): RssVerdict {
  if (samplesMb.length < 3) {
    const first = samplesMb[0] ?? 0;
    const last = samplesMb.at(-1) ?? 0;
    return { level: last <= first, trendMb: last - first, meanMb: (first + last) / 2 };
  }
  const half = samplesMb.slice(Math.floor(samplesMb.length / 2));
  const n = half.length;
  const meanX = (n - 1) / 2;
  const meanMb = half.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  half.forEach((y, x) => {
    num += (x - meanX) * (y - meanMb);
    den += (x - meanX) ** 2;
  });
  const trendMb = den === 0 ? 0 : (num / den) * (n - 1);
  return { level: trendMb <= meanMb * LEVEL_TOLERANCE, trendMb, meanMb };
}
