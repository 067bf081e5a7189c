/**
 * The metrics module: what recordMetric hands the sink, when it is published,
 * and the EMF Powertools writes for it in Lambda (captured from stdout).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Metrics } from '@aws-lambda-powertools/metrics';
import middy from '@middy/core';
import { METRICS, METRIC_NAMESPACE } from '../../../../lambdas/platform/observability/metric-table';
import { MemoryMetricSink } from '../../../../lambdas/platform/observability/metric-sink';
import { flushMetrics, metricsFlushed, recordMetric, setMetricSink, withMetricsFlushed } from '../../../../lambdas/platform/observability/metrics';
import { powertoolsMetricSink } from '../../../../lambdas/platform/observability/powertools-metric-sink';

afterEach(() => {
  setMetricSink(undefined);
  vi.restoreAllMocks();
});

/** The EMF documents Powertools printed while `work` ran. */
function emfPrintedBy(work: () => void): Record<string, any>[] {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    work();
  } finally {
    write.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l));
}

describe('the metric table', () => {
  it('names each metric once, in CloudWatch-safe words', () => {
    const names = Object.values(METRICS).map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
  });
});

describe('recordMetric', () => {
  it('hands the sink the metric of the table with the dimensions given, a count of 1 by default', () => {
    const sink = new MemoryMetricSink();
    setMetricSink(sink);
    recordMetric('jobsCreated', { endpoint: '/jobs/preflight' });
    recordMetric('stepDuration', { stepType: 'validate' }, 1234);
    expect(sink.recorded).toEqual([
      { name: 'JobsCreated', unit: 'Count', value: 1, dimensions: { endpoint: '/jobs/preflight' } },
      { name: 'StepDuration', unit: 'Milliseconds', value: 1234, dimensions: { stepType: 'validate' } },
    ]);
  });

  it('prints nothing outside Lambda (no AWS_LAMBDA_FUNCTION_NAME): the local runtime and tests see no EMF', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    setMetricSink(undefined);
    const printed = emfPrintedBy(() => {
      recordMetric('webhookGiveUps', {});
      flushMetrics();
    });
    expect(printed).toEqual([]);
    vi.unstubAllEnvs();
  });
});

describe('publishing once per invocation', () => {
  it('flushes after a plain handler returns or throws', async () => {
    const sink = new MemoryMetricSink();
    setMetricSink(sink);
    await withMetricsFlushed(async () => recordMetric('webhookGiveUps', {}));
    await expect(withMetricsFlushed(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(sink.flushes).toBe(2);
  });

  it('flushes after a middy handler answers, and after it fails', async () => {
    const sink = new MemoryMetricSink();
    setMetricSink(sink);
    const ok = middy(async () => 'ok').use(metricsFlushed());
    const failing = middy(async () => {
      throw new Error('boom');
    }).use(metricsFlushed());
    await ok(undefined, {} as never);
    await expect(failing(undefined, {} as never)).rejects.toThrow('boom');
    expect(sink.flushes).toBe(2);
  });
});

describe('the Powertools sink (Lambda)', () => {
  const sink = () => powertoolsMetricSink('ProoflineTest', new Metrics({ namespace: METRIC_NAMESPACE, serviceName: 'ProoflineTest' }));

  it('writes EMF in the Proofline namespace with the service dimension and the metric\'s own', () => {
    const s = sink();
    s.add({ name: 'JobsFinished', unit: 'Count', value: 1, dimensions: { status: 'done', outcome: 'pass' } });
    const [doc, ...rest] = emfPrintedBy(() => s.flush());
    expect(rest).toEqual([]);
    expect(doc!._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'Proofline', Dimensions: [['service', 'status', 'outcome']], Metrics: [{ Name: 'JobsFinished', Unit: 'Count' }] },
    ]);
    expect(doc).toMatchObject({ service: 'ProoflineTest', status: 'done', outcome: 'pass', JobsFinished: 1 });
  });

  it('publishes one document per set of dimension values, so two step types never share one', () => {
    const s = sink();
    s.add({ name: 'StepDuration', unit: 'Milliseconds', value: 10, dimensions: { stepType: 'preflight' } });
    s.add({ name: 'StepDuration', unit: 'Milliseconds', value: 30, dimensions: { stepType: 'validate' } });
    s.add({ name: 'StepDuration', unit: 'Milliseconds', value: 20, dimensions: { stepType: 'preflight' } });
    const docs = emfPrintedBy(() => s.flush());
    expect(docs.map((d) => [d.stepType, d.StepDuration])).toEqual([
      ['preflight', [10, 20]],
      ['validate', 30],
    ]);
    // Published once: a second flush has nothing to print.
    expect(emfPrintedBy(() => s.flush())).toEqual([]);
  });

  it('publishes a metric without dimensions of its own under the service dimension alone', () => {
    const s = sink();
    s.add({ name: 'OldestRunningJobAge', unit: 'Seconds', value: 42, dimensions: {} });
    const [doc] = emfPrintedBy(() => s.flush());
    expect(doc!._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(doc!.OldestRunningJobAge).toBe(42);
  });
});
