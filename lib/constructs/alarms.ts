/**
 * The alarms an operator is woken by, and the one SNS topic they all notify
 * (README, "Operating Proofline", says what each means and what to do):
 *
 * - API 5xx rate, over the stage's requests;
 * - Lambda errors and throttles, per function of the stack (every
 *   ProoflineNodejsFunction, found in the construct tree, so a new function is
 *   covered without being listed here);
 * - Step Functions executions failed or timed out, per state machine of the stack;
 * - webhook give-ups (WebhookGiveUps, from the metric table);
 * - DynamoDB throttles on the table and its index;
 * - the age of the oldest running job (OldestRunningJobAge, running-job-age.ts).
 *
 * The dead-letter queues bring their own depth alarms (dead-letter-queue.ts).
 * Every alarm in the stack, those included, gets the topic as its action here,
 * so create this construct last.
 *
 * The topic is encrypted with a customer managed KMS key (CloudWatch cannot
 * publish to a topic under the AWS managed SNS key, whose policy cannot grant
 * it), refuses publishing without TLS, and has an e-mail subscription when
 * `email` is given (context option alarmEmail).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct, type IConstruct } from 'constructs';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import { ProoflineNodejsFunction } from './proofline-nodejs-function';
import { prooflineMetric } from './proofline-metrics';
import { membersOf, pathInStack } from './stack-members';

export interface AlarmThresholds {
  /** Share of the API's requests answered 5xx in 5 minutes; default 0.05 (5 %). */
  apiServerErrorRate?: number;
  /** Requests in 5 minutes below which the 5xx rate is not judged; default 20. */
  apiMinimumRequests?: number;
  /** Errors of one function in 5 minutes; default 1. */
  lambdaErrors?: number;
  /** Throttled invocations of one function in 5 minutes; default 1. */
  lambdaThrottles?: number;
  /** Executions of one state machine failed or timed out in 5 minutes; default 1. */
  executionFailures?: number;
  /** Webhooks given up in 5 minutes; default 1. */
  webhookGiveUps?: number;
  /** Throttled reads and writes of the table and its index in 5 minutes; default 1. */
  tableThrottles?: number;
  /** Age of the oldest running job; default 2 hours (a job's pipeline may run 6 hours at most). */
  oldestRunningJobAge?: Duration;
}

export const DEFAULT_ALARM_THRESHOLDS = {
  apiServerErrorRate: 0.05,
  apiMinimumRequests: 20,
  lambdaErrors: 1,
  lambdaThrottles: 1,
  executionFailures: 1,
  webhookGiveUps: 1,
  tableThrottles: 1,
  oldestRunningJobAge: Duration.hours(2),
} as const satisfies Required<AlarmThresholds>;

export interface OperationalAlarmsProps {
  api: RestApi;
  table: Table;
  /**
   * Functions whose Errors count expected refusals, not faults: no errors alarm (their
   * throttles alarm stays). The key authoriser: every refused key is an `Unauthorized` error.
   */
  expectedErrors?: readonly IFunction[];
  /** Where the alarms are sent by e-mail (a subscription to confirm); default none. */
  email?: string;
  thresholds?: AlarmThresholds;
}

const FIVE_MINUTES = Duration.minutes(5);

export class OperationalAlarms extends Construct {
  readonly topic: Topic;
  readonly thresholds: Required<AlarmThresholds>;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.thresholds = { ...DEFAULT_ALARM_THRESHOLDS, ...props.thresholds };
    const t = this.thresholds;

    const key = new Key(this, 'TopicKey', {
      description: `Proofline ${stack.stackName}: encrypts the alarm topic's messages.`,
      enableKeyRotation: true,
    });
    // CloudWatch publishes an alarm's state change to the encrypted topic with this key.
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Topic', { displayName: `Proofline ${stack.stackName} alarms`, masterKey: key, enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    this.apiServerErrorRate(props.api, t);
    const expected = new Set<IConstruct>(props.expectedErrors ?? []);
    for (const fn of membersOf(this, ProoflineNodejsFunction)) {
      const name = pathInStack(fn);
      // By path: two constructs may each name their function `Function` (RetentionSweep, RunningJobAge).
      const id = name.replace(/\//g, '');
      if (!expected.has(fn)) this.alarm(`${id}Errors`, `Function ${name} failed ${t.lambdaErrors} or more times in 5 minutes.`, fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), t.lambdaErrors);
      this.alarm(`${id}Throttles`, `Function ${name} was throttled ${t.lambdaThrottles} or more times in 5 minutes.`, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), t.lambdaThrottles);
    }
    for (const machine of membersOf(this, StateMachine)) {
      const name = pathInStack(machine);
      // An Express execution of the job pipeline that times out is a long job moving to the Standard
      // machine (step-definitions/job-pipeline.ts), not a failure; failing is still worth a look.
      const express = machine.stateMachineType === StateMachineType.EXPRESS;
      const failed = express
        ? machine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' })
        : new MathExpression({
            expression: 'failed + timedOut',
            usingMetrics: { failed: machine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }), timedOut: machine.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }) },
            label: 'Executions failed or timed out',
            period: FIVE_MINUTES,
          });
      const what = express ? 'executions failed' : 'executions failed or timed out';
      this.alarm(`${name.replace(/\//g, '')}ExecutionsFailed`, `State machine ${name}: ${t.executionFailures} or more ${what} in 5 minutes.`, failed, t.executionFailures);
    }
    this.alarm('WebhookGiveUps', `${t.webhookGiveUps} or more jobs' webhooks were given up after their last attempt in 5 minutes.`, prooflineMetric(this, 'webhookGiveUps', {}, { statistic: 'Sum' }), t.webhookGiveUps);
    this.tableThrottles(props.table, t);
    this.alarm(
      'OldestRunningJobAge',
      `A job has not been terminal for ${t.oldestRunningJobAge.toHumanString()} or more.`,
      prooflineMetric(this, 'oldestRunningJobAge', {}, { statistic: 'Maximum' }),
      t.oldestRunningJobAge.toSeconds(),
    );

    // Every alarm of the stack notifies the topic: these, and those of the dead-letter queues.
    const action = new SnsAction(this.topic);
    for (const alarm of membersOf(this, Alarm)) alarm.addAlarmAction(action);
  }

  /** An alarm when `metric` reaches `threshold` in one 5-minute period; no data is no alarm. */
  private alarm(id: string, description: string, metric: IMetric, threshold: number): Alarm {
    return new Alarm(this, id, {
      alarmDescription: `${description} See README, Operating Proofline.`,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  private apiServerErrorRate(api: RestApi, t: Required<AlarmThresholds>): void {
    const rate = new MathExpression({
      // Judged only with enough requests: one 5xx of two is not an outage.
      expression: `IF(requests >= ${t.apiMinimumRequests}, errors / requests, 0)`,
      usingMetrics: { errors: api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }), requests: api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }) },
      label: 'Share of requests answered 5xx',
      period: FIVE_MINUTES,
    });
    this.alarm('ApiServerErrorRate', `${t.apiServerErrorRate * 100} % or more of the API's requests (of at least ${t.apiMinimumRequests}) were answered 5xx in 5 minutes.`, rate, t.apiServerErrorRate);
  }

  /** The table's throttled reads and writes, and its index's (an index throttled on writes throttles the table's writes too). */
  private tableThrottles(table: Table, t: Required<AlarmThresholds>): void {
    const throttles = (metricName: string, index?: string): IMetric =>
      table.metric(metricName, {
        period: FIVE_MINUTES,
        statistic: 'Sum',
        dimensionsMap: { TableName: table.tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
      });
    const index = TABLE_SCHEMA.gsi1.name;
    const expression = new MathExpression({
      expression: 'FILL(reads, 0) + FILL(writes, 0) + FILL(indexReads, 0) + FILL(indexWrites, 0)',
      usingMetrics: {
        reads: throttles('ReadThrottleEvents'),
        writes: throttles('WriteThrottleEvents'),
        indexReads: throttles('ReadThrottleEvents', index),
        indexWrites: throttles('WriteThrottleEvents', index),
      },
      label: 'Throttled reads and writes',
      period: FIVE_MINUTES,
    });
    this.alarm('TableThrottles', `The table or its index throttled ${t.tableThrottles} or more reads or writes in 5 minutes.`, expression, t.tableThrottles);
  }
}
