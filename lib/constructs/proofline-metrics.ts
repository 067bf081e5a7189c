/**
 * Proofline's own metrics as CloudWatch sees them, for the alarms and the
 * dashboard: built from the one metric table
 * (lambdas/platform/observability/metric-table.ts), never from a name typed here.
 * Every metric carries the `service` dimension, the stack's name
 * (ProoflineNodejsFunction sets it on every function as METRICS_SERVICE).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { Metric, SearchExpression, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { IConstruct } from 'constructs';
import { METRIC_NAMESPACE, METRIC_SERVICE_DIMENSION, METRICS, type DimensionsOf, type MetricKey } from '../../lambdas/platform/observability/metric-table';

/** The value of the `service` dimension of the stack `scope` is in. */
export const metricService = (scope: IConstruct): string => Stack.of(scope).stackName;

/** One time series of metric `key`: the stack's, with exactly these dimension values. */
export function prooflineMetric<K extends MetricKey>(
  scope: IConstruct,
  key: K,
  dimensions: DimensionsOf<K>,
  options: Omit<MetricOptions, 'dimensionsMap' | 'unit'> = {},
): Metric {
  const spec = METRICS[key];
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: spec.name,
    dimensionsMap: { [METRIC_SERVICE_DIMENSION]: metricService(scope), ...(dimensions as Record<string, string>) },
    period: Duration.minutes(5),
    label: spec.name,
    ...options,
  });
}

/**
 * Every time series of metric `key` in the stack, one per value of its own
 * dimensions (a line per step type, per status and outcome, …), as a dashboard
 * search: no value has to be listed, and a new step type shows up by itself.
 */
export function prooflineMetricSearch(scope: IConstruct, key: MetricKey, statistic: string, period = Duration.minutes(5)): SearchExpression {
  const spec = METRICS[key];
  const schema = [METRIC_NAMESPACE, METRIC_SERVICE_DIMENSION, ...spec.dimensions].join(',');
  const service = metricService(scope);
  return new SearchExpression({
    expression: `SEARCH('{${schema}} MetricName="${spec.name}" ${METRIC_SERVICE_DIMENSION}="${service}"', '${statistic}', ${period.toSeconds()})`,
    label: spec.dimensions.length > 0 ? '' : spec.name,
    period,
  });
}
