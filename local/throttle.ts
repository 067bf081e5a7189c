/**
 * The local stand-in for API Gateway's request throttling: a token bucket per
 * client (the caller's key, or the source address on public routes) that
 * refills `ratePerSecond` tokens a second up to `burst`. The cloud stage limits
 * default to 100 requests/s with bursts of 200; RATE_LIMIT_RPS and
 * RATE_LIMIT_BURST change them locally (tests exercise 429 with small values).
 */
export interface ThrottleLimits {
  ratePerSecond: number;
  burst: number;
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface Throttle {
  take(client: string): ThrottleDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets idle this long are full again, so they are forgotten. */
const FORGET_AFTER_MS = 10 * 60_000;

export function createThrottle(limits: ThrottleLimits, now: () => number = Date.now): Throttle {
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();

  function sweep(t: number): void {
    if (t - lastSweep < FORGET_AFTER_MS) return;
    lastSweep = t;
    for (const [client, b] of buckets) if (t - b.at > FORGET_AFTER_MS) buckets.delete(client);
  }

  return {
    take(client) {
      const t = now();
      sweep(t);
      const b = buckets.get(client) ?? { tokens: limits.burst, at: t };
      b.tokens = Math.min(limits.burst, b.tokens + ((t - b.at) / 1000) * limits.ratePerSecond);
      b.at = t;
      buckets.set(client, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { allowed: true };
      }
      const wait = limits.ratePerSecond > 0 ? (1 - b.tokens) / limits.ratePerSecond : 60;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    },
  };
}

/** Limits from the environment, defaulting to the cloud stage's. */
export function throttleLimitsFrom(env: NodeJS.ProcessEnv): ThrottleLimits {
  const num = (name: string, fallback: number) => {
    const n = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
  };
  return { ratePerSecond: num('RATE_LIMIT_RPS', 100), burst: num('RATE_LIMIT_BURST', 200) };
}
