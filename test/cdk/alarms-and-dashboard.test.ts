/**
 * What operators get (lib/constructs/alarms.ts, dashboard.ts, dead-letter-queue.ts,
 * running-job-age.ts), as synthesized: one encrypted alarm topic every alarm
 * notifies, an alarm per function, state machine and dead-letter queue, the
 * API, table, webhook and running-job alarms, dead-letter queues behind every
 * rule target and the webhook caller's async invocations, and the dashboard.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { METRICS } from '../../lambdas/platform/observability/metric-table';
import { AUTHORIZER_ENTRY } from '../../lambdas/api/routes';
import { WORKERS } from '../../step-definitions/workers';
import { RUNNING_JOB_AGE_ENTRY } from '../../lib/constructs/running-job-age';
import { DEFAULT_ALARM_THRESHOLDS } from '../../lib/constructs/alarms';
import { repoPath } from '../../lib/paths';
import { synthProofline } from './support/synth';
import { functionIdByEntry, getAttId, refId, resourcesOfType, roleIdOfFunction, statementsOfRole, allowedActions, type CfnResource } from './support/template-queries';

let template: Template;
let alarms: [string, CfnResource][];
let topicId: string;

beforeAll(() => {
  ({ template } = synthProofline());
  alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm');
  const topics = resourcesOfType(template, 'AWS::SNS::Topic');
  expect(topics).toHaveLength(1);
  topicId = topics[0]![0];
});

/** The metrics an alarm watches: its own, or those of its math expression. */
function watched(alarm: CfnResource): { namespace: string; name: string; dimensions: Record<string, unknown>; stat: string }[] {
  const single = alarm.Properties.MetricName
    ? [{ Namespace: alarm.Properties.Namespace, MetricName: alarm.Properties.MetricName, Dimensions: alarm.Properties.Dimensions, Stat: alarm.Properties.Statistic }]
    : (alarm.Properties.Metrics as any[]).filter((m) => m.MetricStat).map((m) => ({ ...m.MetricStat.Metric, Stat: m.MetricStat.Stat }));
  return single.map((m: any) => ({
    namespace: m.Namespace,
    name: m.MetricName,
    stat: m.Stat,
    dimensions: Object.fromEntries((m.Dimensions ?? []).map((d: { Name: string; Value: unknown }) => [d.Name, d.Value])),
  }));
}

const alarmsOn = (metricName: string, dimension: string, value: unknown): CfnResource[] =>
  alarms.map(([, a]) => a).filter((a) => watched(a).some((m) => m.name === metricName && JSON.stringify(m.dimensions[dimension]) === JSON.stringify(value)));

const ourFunctionIds = (): string[] =>
  resourcesOfType(template, 'AWS::Lambda::Function')
    .filter(([, f]) => typeof f.Properties.Description === 'string' && f.Properties.Description.startsWith('lambdas/'))
    .map(([id]) => id);

describe('the alarm topic', () => {
  it('is encrypted with a customer managed key that rotates and that CloudWatch may use', () => {
    const topic = resourcesOfType(template, 'AWS::SNS::Topic')[0]![1];
    const keyId = getAttId(topic.Properties.KmsMasterKeyId);
    expect(keyId).toBeTruthy();
    const key = resourcesOfType(template, 'AWS::KMS::Key').find(([id]) => id === keyId)![1];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const grants = (key.Properties.KeyPolicy.Statement as any[]).filter((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(grants.flatMap((s) => s.Action)).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']));
  });

  it('refuses publishing without TLS', () => {
    const policy = resourcesOfType(template, 'AWS::SNS::TopicPolicy')[0]![1];
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('has no subscription by default, and an e-mail subscription with alarmEmail', () => {
    expect(resourcesOfType(template, 'AWS::SNS::Subscription')).toEqual([]);
    const { template: withEmail } = synthProofline({ stackProps: { alarmEmail: 'ops@example.com' } });
    const subscriptions = resourcesOfType(withEmail, 'AWS::SNS::Subscription');
    expect(subscriptions.map(([, s]) => [s.Properties.Protocol, s.Properties.Endpoint])).toEqual([['email', 'ops@example.com']]);
    expect(refId(subscriptions[0]![1].Properties.TopicArn)).toBe(topicId);
  });

  it('is the one action of every alarm in the stack', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const [id, alarm] of alarms) expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
  });
});

describe('Lambda alarms', () => {
  it('watch errors and throttles of every function of the stack, each by itself', () => {
    const authorizer = functionIdByEntry(template, AUTHORIZER_ENTRY);
    const ids = ourFunctionIds();
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) {
      expect(alarmsOn('Throttles', 'FunctionName', { Ref: id }), id).toHaveLength(1);
      // The authoriser's Errors count every refused key; its faults show as API 5xx.
      expect(alarmsOn('Errors', 'FunctionName', { Ref: id }), id).toHaveLength(id === authorizer ? 0 : 1);
    }
    const errors = alarmsOn('Errors', 'FunctionName', { Ref: functionIdByEntry(template, WORKERS.finalise.entry) })[0]!;
    expect(errors.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, Period: 300, Statistic: 'Sum', TreatMissingData: 'notBreaching' });
  });
});

describe('Step Functions alarms', () => {
  it('watch failed executions of each state machine, and timed-out ones of the Standard machines', () => {
    const machines = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
    expect(machines).toHaveLength(3);
    for (const [id, machine] of machines) {
      const [alarm, ...more] = alarmsOn('ExecutionsFailed', 'StateMachineArn', { Ref: id });
      expect(more, id).toEqual([]);
      // An Express execution that times out is a long job continuing in the Standard machine, not a failure.
      const expected = machine.Properties.StateMachineType === 'EXPRESS' ? ['ExecutionsFailed'] : ['ExecutionsFailed', 'ExecutionsTimedOut'];
      expect(watched(alarm!).map((m) => m.name).sort(), id).toEqual(expected);
      expect(alarm!.Properties.Threshold).toBe(1);
    }
  });
});

describe('the API 5xx rate alarm', () => {
  it('judges the share of requests answered 5xx, once there are enough requests', () => {
    const [alarm, ...more] = alarms.map(([, a]) => a).filter((a) => watched(a).some((m) => m.name === '5XXError'));
    expect(more).toEqual([]);
    expect(watched(alarm!).map((m) => `${m.namespace} ${m.name} ${m.stat}`).sort()).toEqual(['AWS/ApiGateway 5XXError Sum', 'AWS/ApiGateway Count Sum']);
    const expression = (alarm!.Properties.Metrics as any[]).find((m) => m.Expression).Expression;
    expect(expression).toBe('IF(requests >= 20, errors / requests, 0)');
    expect(alarm!.Properties.Threshold).toBe(DEFAULT_ALARM_THRESHOLDS.apiServerErrorRate);
  });
});

describe('alarms on Proofline metrics', () => {
  const ours = (metric: { name: string }) =>
    alarms.map(([, a]) => a).filter((a) => watched(a).some((m) => m.namespace === 'Proofline' && m.name === metric.name && m.dimensions.service === 'Proofline'));

  it('fires on a webhook given up', () => {
    const [alarm, ...more] = ours(METRICS.webhookGiveUps);
    expect(more).toEqual([]);
    expect(watched(alarm!).map((m) => m.stat)).toEqual(['Sum']);
    expect(alarm!.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('fires when the oldest running job is 2 hours old, from a function a schedule runs every 5 minutes', () => {
    const [alarm, ...more] = ours(METRICS.oldestRunningJobAge);
    expect(more).toEqual([]);
    expect(watched(alarm!).map((m) => m.stat)).toEqual(['Maximum']);
    expect(alarm!.Properties.Threshold).toBe(7200);

    const fnId = functionIdByEntry(template, RUNNING_JOB_AGE_ENTRY);
    const schedule = resourcesOfType(template, 'AWS::Events::Rule').filter(([, r]) => getAttId(r.Properties.Targets[0].Arn) === fnId);
    expect(schedule.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(['rate(5 minutes)']);
    // It only reads the table: one Query of the unfinished index (lambdas/monitoring/oldest-running-job.ts).
    const actions = allowedActions(statementsOfRole(template, roleIdOfFunction(template, fnId)));
    expect([...actions].filter((a) => a.startsWith('dynamodb:') && /Put|Update|Delete|Write/.test(a))).toEqual([]);
    expect(actions.has('dynamodb:Query')).toBe(true);
  });
});

describe('the table throttles alarm', () => {
  it('adds up throttled reads and writes of the table and of its index', () => {
    const [alarm, ...more] = alarms.map(([, a]) => a).filter((a) => watched(a).some((m) => m.name === 'ReadThrottleEvents'));
    expect(more).toEqual([]);
    expect(watched(alarm!).map((m) => `${m.name} ${m.dimensions.GlobalSecondaryIndexName ?? 'table'}`).sort()).toEqual([
      'ReadThrottleEvents gsi1',
      'ReadThrottleEvents table',
      'WriteThrottleEvents gsi1',
      'WriteThrottleEvents table',
    ]);
  });
});

describe('dead-letter queues', () => {
  const queues = () => resourcesOfType(template, 'AWS::SQS::Queue');

  it('are encrypted, keep a message 14 days, refuse requests without TLS, and each has a depth alarm', () => {
    // The webhook events', the webhook caller's and the schedule's, at least.
    expect(queues().length).toBeGreaterThanOrEqual(3);
    const policies = resourcesOfType(template, 'AWS::SQS::QueuePolicy');
    for (const [id, queue] of queues()) {
      expect(queue.Properties, id).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      const policy = policies.find(([, p]) => p.Properties.Queues.some((q: unknown) => refId(q) === id));
      expect(policy![1].Properties.PolicyDocument.Statement, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      const [depth, ...more] = alarmsOn('ApproximateNumberOfMessagesVisible', 'QueueName', { 'Fn::GetAtt': [id, 'QueueName'] });
      expect(more, id).toEqual([]);
      expect(depth!.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Statistic: 'Maximum' });
    }
  });

  /**
   * The pipeline's abandoned-execution rule (lib/constructs/pipeline.ts) gets its queue through
   * `eventTargetDelivery` when the pipeline is rebuilt; this list must name only rules still without one.
   */
  const NOT_YET_DEAD_LETTERED: string[] = [];

  it('stand behind every EventBridge rule target, which retries for a day first', () => {
    const rules = resourcesOfType(template, 'AWS::Events::Rule');
    expect(rules.length).toBeGreaterThanOrEqual(3);
    for (const [id, rule] of rules) {
      const waiting = NOT_YET_DEAD_LETTERED.some((prefix) => id.startsWith(prefix));
      for (const target of rule.Properties.Targets as any[]) {
        if (waiting) {
          expect(target.DeadLetterConfig, `${id} has its queue now: drop it from NOT_YET_DEAD_LETTERED`).toBeUndefined();
          continue;
        }
        expect(queues().map(([q]) => q), id).toContain(getAttId(target.DeadLetterConfig?.Arn));
        expect(target.RetryPolicy, id).toEqual({ MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 });
      }
    }
  });

  it("keep the webhook caller's async invocations that fail after Lambda's two retries", () => {
    const caller = functionIdByEntry(template, WORKERS.webhookCaller.entry);
    const configs = resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').filter(([, c]) => refId(c.Properties.FunctionName) === caller);
    expect(configs).toHaveLength(1);
    const config = configs[0]![1].Properties;
    expect(config.MaximumRetryAttempts).toBe(2);
    expect(queues().map(([q]) => q)).toContain(getAttId(config.DestinationConfig.OnFailure.Destination));
    // The caller may send to that queue (the destination's grant).
    const sends = [...allowedActions(statementsOfRole(template, roleIdOfFunction(template, caller)))].filter((a) => a.startsWith('sqs:'));
    expect(sends).toContain('sqs:SendMessage');
  });
});

describe('every function', () => {
  it("publishes its metrics under the stack's name as the service dimension", () => {
    for (const id of ourFunctionIds()) {
      const fn = resourcesOfType(template, 'AWS::Lambda::Function').find(([i]) => i === id)![1];
      expect(fn.Properties.Environment.Variables.METRICS_SERVICE, id).toBe('Proofline');
    }
  });
});

describe('the dashboard', () => {
  let body: string;
  beforeAll(() => {
    const dashboards = resourcesOfType(template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]![1].Properties.DashboardName).toBe('Proofline-operations');
    body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
  });

  it.each(Object.values(METRICS).map((m) => [m.name]))('shows %s', (name) => {
    expect(body.includes(name)).toBe(true);
  });

  it('shows step duration p50 and p99 by step type, from the metric table', () => {
    for (const stat of ['p50', 'p99']) {
      expect(body.includes(`SEARCH('{Proofline,service,stepType} MetricName=\\\\\\"StepDuration\\\\\\" service=\\\\\\"Proofline\\\\\\"', '${stat}', 300)`), stat).toBe(true);
    }
  });

  it("shows the API's 4xx, 5xx and latency, every function's errors, throttles and duration, every machine's executions and every queue's depth", () => {
    for (const metric of ['4XXError', '5XXError', 'Latency', 'Errors', 'Throttles', 'Duration', 'ExecutionsStarted', 'ExecutionsFailed', 'ExecutionsTimedOut', 'ApproximateNumberOfMessagesVisible']) {
      expect(body.includes(`\\"${metric}\\"`), metric).toBe(true);
    }
    for (const id of ourFunctionIds()) expect(body.includes(`{"Ref":"${id}"}`), id).toBe(true);
  });
});

describe("the README's runbook", () => {
  const runbook = readFileSync(repoPath('README.md'), 'utf8').split('## Operating Proofline')[1]!.split('\n## ')[0]!;

  it('reads only stack outputs the stack has', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    const read = [...runbook.matchAll(/\$\(out (\w+)\)/g)].map((m) => m[1]!);
    expect(read.length).toBeGreaterThan(0);
    for (const name of read) expect(outputs, name).toContain(name);
  });

  it('points the replay outputs at the webhook caller and its two queues', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(refId(outputs.WebhookCallerFunctionName!.Value)).toBe(functionIdByEntry(template, WORKERS.webhookCaller.entry));
    const queueIds = [refId(outputs.WebhookEventDeadLettersUrl!.Value), refId(outputs.WebhookCallerFailuresUrl!.Value)];
    expect(queueIds.every((id) => id !== undefined && resourcesOfType(template, 'AWS::SQS::Queue').some(([q]) => q === id))).toBe(true);
  });
});
