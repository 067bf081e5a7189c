/**
 * Where recorded metrics go. In Lambda: Powertools Metrics, which writes them
 * to stdout as CloudWatch EMF when flushed (powertools-metric-sink.ts).
 * Anywhere else (the local runtime, its worker threads, tests, benchmarks):
 * nowhere, so EMF never floods a console; a test that wants to see what was
 * recorded installs a MemoryMetricSink (metrics.ts's setMetricSink).
 */
import type { MetricUnitName } from './metric-table';

export interface RecordedMetric {
  name: string;
  unit: MetricUnitName;
  value: number;
  /** Besides `service`, which the sink adds. */
  dimensions: Readonly<Record<string, string>>;
}

export interface MetricSink {
  add(metric: RecordedMetric): void;
  /** Publishes what was added since the last flush; called once per invocation. */
  flush(): void;
}

/** Drops everything: the default outside Lambda. */
export const discardingMetricSink: MetricSink = { add() {}, flush() {} };

/** Keeps every metric in memory, flushed or not: for tests. */
export class MemoryMetricSink implements MetricSink {
  readonly recorded: RecordedMetric[] = [];
  flushes = 0;

  add(metric: RecordedMetric): void {
    this.recorded.push(metric);
  }

  flush(): void {
    this.flushes += 1;
  }

  /** The recorded data points of one metric name. */
  named(name: string): RecordedMetric[] {
    return this.recorded.filter((m) => m.name === name);
  }
}
