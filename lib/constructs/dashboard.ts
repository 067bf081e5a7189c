/**
 * The operations dashboard: one CloudWatch dashboard with Proofline's own
 * metrics (from the metric table: jobs created and finished, step duration p50
 * and p99 by type, step errors, webhook attempts and give-ups, sync requests
 * answered 202, unreadable files, the oldest running job) beside the services'
 * (the API's requests, 4xx, 5xx and latency; every function's errors, throttles
 * and duration; every state machine's executions; every dead-letter queue's depth).
 * Functions, state machines and queues are found in the stack, as the alarms find them.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, TextWidget, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { DeadLetterQueue } from './dead-letter-queue';
import { ProoflineNodejsFunction } from './proofline-nodejs-function';
import { prooflineMetric, prooflineMetricSearch } from './proofline-metrics';
import { membersOf, pathInStack } from './stack-members';

export interface OperationsDashboardProps {
  api: RestApi;
  /** Default `<stack name>-operations`. */
  dashboardName?: string;
  /** The graphs' period; default 5 minutes. */
  period?: Duration;
}

const WIDTH = 8;
const HEIGHT = 6;

export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const period = props.period ?? Duration.minutes(5);
    const graph = (title: string, left: IMetric[], right: IMetric[] = []): GraphWidget =>
      new GraphWidget({ title, left, right, width: WIDTH, height: HEIGHT, period });
    const sum = { statistic: 'Sum', period };

    const functions = membersOf(this, ProoflineNodejsFunction);
    const machines = membersOf(this, StateMachine);
    const queues = membersOf(this, DeadLetterQueue);
    const perFunction = (metric: (fn: ProoflineNodejsFunction) => IMetric): IMetric[] => functions.map(metric);
    const fnLabel = (fn: ProoflineNodejsFunction): string => pathInStack(fn).replace(/\/?Function$/, '');

    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown: `# Proofline ${Stack.of(this).stackName}\nWhat each alarm means and what to do: the README's "Operating Proofline".`,
          width: 24,
          height: 2,
        }),
      ],
      [
        graph('Jobs created, by route', [prooflineMetricSearch(this, 'jobsCreated', 'Sum', period)]),
        graph('Jobs finished, by status and outcome', [prooflineMetricSearch(this, 'jobsFinished', 'Sum', period)]),
        graph('Sync requests answered 202, by route', [prooflineMetricSearch(this, 'syncRequestsPending', 'Sum', period)]),
      ],
      [
        graph('Step duration p50 (ms), by step type', [prooflineMetricSearch(this, 'stepDuration', 'p50', period)]),
        graph('Step duration p99 (ms), by step type', [prooflineMetricSearch(this, 'stepDuration', 'p99', period)]),
        graph('Step errors, by reason class', [prooflineMetricSearch(this, 'stepErrors', 'Sum', period)]),
      ],
      [
        graph('Webhook attempts, by result; give-ups', [prooflineMetricSearch(this, 'webhookAttempts', 'Sum', period)], [prooflineMetric(this, 'webhookGiveUps', {}, sum)]),
        graph('Files refused as unreadable, by stage', [prooflineMetricSearch(this, 'unreadableFiles', 'Sum', period)]),
        graph('Oldest running job (s)', [prooflineMetric(this, 'oldestRunningJobAge', {}, { statistic: 'Maximum', period })]),
      ],
      [
        graph('API requests, 4xx and 5xx', [props.api.metricCount(sum), props.api.metricClientError(sum), props.api.metricServerError(sum)]),
        graph('API latency p50 and p99 (ms)', [
          props.api.metricLatency({ statistic: 'p50', period, label: 'p50' }),
          props.api.metricLatency({ statistic: 'p99', period, label: 'p99' }),
        ]),
        graph('Dead-letter queues: messages waiting', queues.map((q) => q.queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period, label: pathInStack(q) }))),
      ],
      [
        graph('Lambda errors, by function', perFunction((fn) => fn.metricErrors({ ...sum, label: fnLabel(fn) }))),
        graph('Lambda throttles, by function', perFunction((fn) => fn.metricThrottles({ ...sum, label: fnLabel(fn) }))),
        graph('Lambda duration p99 (ms), by function', perFunction((fn) => fn.metricDuration({ statistic: 'p99', period, label: fnLabel(fn) }))),
      ],
      machines.map((m) =>
        graph(`Executions: ${pathInStack(m)}`, [
          m.metricStarted(sum),
          m.metricSucceeded(sum),
          m.metricFailed(sum),
          m.metricTimedOut(sum),
        ]),
      ),
    ];

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName ?? `${Stack.of(this).stackName}-operations`,
      widgets: rows,
    });
  }
}
