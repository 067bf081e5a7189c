/**
 * For tests of emit points: a MemoryMetricSink installed as the process's
 * metric sink before each test (a fresh one each time) and removed after.
 */
import { afterEach, beforeEach } from 'vitest';
import { MemoryMetricSink } from '../../lambdas/platform/observability/metric-sink';
import { setMetricSink } from '../../lambdas/platform/observability/metrics';

export function useMemoryMetrics(): { readonly sink: MemoryMetricSink } {
  let sink = new MemoryMetricSink();
  beforeEach(() => {
    sink = new MemoryMetricSink();
    setMetricSink(sink);
  });
  afterEach(() => setMetricSink(undefined));
  return {
    get sink() {
      return sink;
    },
  };
}
