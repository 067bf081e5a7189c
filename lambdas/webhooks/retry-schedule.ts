/**
 * When a failed webhook is tried again (docs/api.md §9): attempt 1 right away, then
 * attempts 2..N+1 after the N configured delays (5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h by default), each with ±10 % jitter so many receivers that fail at
 * once (an outage) are not all retried in the same second.
 */

/** Attempts in all: the first plus one per scheduled delay. */
export const maxAttempts = (schedule: readonly number[]): number => 1 + schedule.length;

/** `base` seconds ± 10 %, in whole seconds, never negative. */
export function jitteredDelay(baseSeconds: number, random: () => number = Math.random): number {
  const factor = 0.9 + 0.2 * Math.min(1, Math.max(0, random()));
  return Math.max(0, Math.round(baseSeconds * factor));
}

/** The delay before attempt `failedAttempt + 1`, or null when that was the last attempt. */
export function delayAfterFailure(
  failedAttempt: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): number | null {
  if (failedAttempt < 1 || failedAttempt >= maxAttempts(schedule)) return null;
  return jitteredDelay(schedule[failedAttempt - 1]!, random);
}
