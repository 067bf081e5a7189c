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

/** How much the last third of the run may exceed the middle third's peak and still count as level. */
export const LEVEL_TOLERANCE = 1.15;

export interface RssVerdict {
  level: boolean;
  middlePeakMb: number;
  lastPeakMb: number;
}

/**
 * Memory levels off when the peak of the run's last third is within
 * LEVEL_TOLERANCE of the middle third's: the first third is warm-up (workers
 * start, caches fill), a leak keeps climbing through the rest. Needs at least
 * three samples; fewer are judged level only when they do not grow at all.
 */
export function rssLevelsOff(samplesMb: readonly number[]): RssVerdict {
  if (samplesMb.length < 3) {
    const first = samplesMb[0] ?? 0;
    const last = samplesMb.at(-1) ?? 0;
    return { level: last <= first, middlePeakMb: first, lastPeakMb: last };
  }
  const third = Math.floor(samplesMb.length / 3);
  const middle = samplesMb.slice(third, samplesMb.length - third);
  const last = samplesMb.slice(samplesMb.length - third);
  const middlePeakMb = Math.max(...middle);
  const lastPeakMb = Math.max(...last);
  return { level: lastPeakMb <= middlePeakMb * LEVEL_TOLERANCE, middlePeakMb, lastPeakMb };
}
