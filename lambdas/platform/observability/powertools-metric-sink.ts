/**
 * The Lambda metric sink: Powertools Metrics, namespace `Proofline`, with the
 * `service` dimension. One EMF document can hold only one value per dimension,
 * so the sink buffers what an invocation records and, on flush, publishes one
 * document per distinct set of dimension values (two step types' durations in
 * one invocation are two documents). A metric must never fail the work it
 * counts: a failure to publish is logged and dropped.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { asError, logger } from '../../observability/logger';
import { METRIC_NAMESPACE } from './metric-table';
import type { MetricSink, RecordedMetric } from './metric-sink';

export function powertoolsMetricSink(serviceName: string, metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName })): MetricSink {
  let buffered: RecordedMetric[] = [];
  return {
    add(metric) {
      buffered.push(metric);
    },
    flush() {
      const groups = new Map<string, RecordedMetric[]>();
      for (const metric of buffered) {
        const key = JSON.stringify(Object.entries(metric.dimensions).sort(([a], [b]) => a.localeCompare(b)));
        groups.set(key, [...(groups.get(key) ?? []), metric]);
      }
      buffered = [];
      for (const group of groups.values()) {
        try {
          for (const [name, value] of Object.entries(group[0]!.dimensions)) metrics.addDimension(name, value);
          for (const metric of group) metrics.addMetric(metric.name, metric.unit, metric.value);
          metrics.publishStoredMetrics();
        } catch (err) {
          logger.warn({ message: 'metrics not published' }, asError(err));
          metrics.clearMetrics();
          metrics.clearDimensions();
        }
      }
    },
  };
}
