/**
 * OldestRunningJobAge: the age of the oldest job not yet terminal, read from
 * its id's time, 0 when every job is terminal; published by the scheduled handler.
 */
import { describe, expect, it } from 'vitest';
import { ulidIdSource } from '../../../lambdas/domain/ids';
import { setServices } from '../../../lambdas/platform/services';
import type { Services } from '../../../lambdas/domain/ports';
import { handler, oldestRunningJobAgeSeconds } from '../../../lambdas/monitoring/oldest-running-job';
import { useMemoryMetrics } from '../../support/memory-metrics';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const clock = { now: () => new Date(NOW) };
const jobIdAt = (ms: number): string => ulidIdSource({ now: () => new Date(ms) }).next('job');
// The store answers with the oldest of them, as the unfinished index does (ids sort by creation).
const storeOf = (ids: string[]) => ({ oldestUnfinishedJobId: async () => [...ids].sort()[0] ?? null });

const metrics = useMemoryMetrics();

describe('the oldest running job', () => {
  it('is as old as the earliest created of the unfinished jobs, in whole seconds', async () => {
    const ids = [jobIdAt(NOW - 90_500), jobIdAt(NOW - 3_600_000), jobIdAt(NOW - 5_000)];
    await expect(oldestRunningJobAgeSeconds({ jobs: storeOf(ids), clock })).resolves.toBe(3600);
  });

  it('is 0 when every job is terminal, so the metric keeps coming', async () => {
    await expect(oldestRunningJobAgeSeconds({ jobs: storeOf([]), clock })).resolves.toBe(0);
  });

  it('is published by the scheduled handler as OldestRunningJobAge in seconds', async () => {
    setServices({ jobs: storeOf([jobIdAt(NOW - 120_000)]), clock } as unknown as Services);
    try {
      await expect(handler()).resolves.toEqual({ oldestRunningJobAgeSeconds: 120 });
    } finally {
      setServices(undefined);
    }
    expect(metrics.sink.recorded).toEqual([{ name: 'OldestRunningJobAge', unit: 'Seconds', value: 120, dimensions: {} }]);
    expect(metrics.sink.flushes).toBe(1);
  });
});
