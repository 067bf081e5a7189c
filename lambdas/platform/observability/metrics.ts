/**
 * Recording Proofline's metrics (metric-table.ts names them) from handlers and
 * workers. Emit points call `recordMetric`; what was recorded is published once
 * per invocation: middy handlers use the `metricsFlushed()` middleware, plain
 * handlers wrap their body in `withMetricsFlushed`.
 *
 * The sink is chosen once per process: Powertools Metrics (EMF on stdout) when
 * running in Lambda, else one that drops everything (the local runtime and
 * tests print no EMF); tests install a MemoryMetricSink with `setMetricSink`.
 */
import type { MiddlewareObj } from '@middy/core';
import { METRICS, METRICS_SERVICE_ENV, type DimensionsOf, type MetricKey } from './metric-table';
import { discardingMetricSink, type MetricSink } from './metric-sink';
import { powertoolsMetricSink } from './powertools-metric-sink';

let sink: MetricSink | undefined;

/** Lambda sets AWS_LAMBDA_FUNCTION_NAME in every function's environment. */
function defaultSink(env: NodeJS.ProcessEnv = process.env): MetricSink {
  return env.AWS_LAMBDA_FUNCTION_NAME ? powertoolsMetricSink(env[METRICS_SERVICE_ENV] || 'proofline') : discardingMetricSink;
}

function currentSink(): MetricSink {
  sink ??= defaultSink();
  return sink;
}

/** Replaces the sink for this process (tests); undefined goes back to the default. */
export function setMetricSink(next: MetricSink | undefined): void {
  sink = next;
}

/** Records one data point of metric `key` (a count of 1 unless `value` says otherwise). */
export function recordMetric<K extends MetricKey>(key: K, dimensions: DimensionsOf<K>, value = 1): void {
  const spec = METRICS[key];
  currentSink().add({ name: spec.name, unit: spec.unit, value, dimensions });
}

/** Publishes what this invocation recorded. */
export function flushMetrics(): void {
  currentSink().flush();
}

/** For plain (non-middy) handlers: runs the invocation's work, then publishes its metrics, whether it returned or threw. */
export async function withMetricsFlushed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    flushMetrics();
  }
}

/** For middy handlers: publishes the invocation's metrics after the handler, or after its error. */
export function metricsFlushed<Event, Result>(): MiddlewareObj<Event, Result> {
  return { after: flushMetrics, onError: flushMetrics };
}
