/**
 * A dead-letter queue with its alarm: where an event or an async invocation
 * that could not be delivered waits (14 days, SQS's longest) to be replayed
 * (README, "Operating Proofline"), and an alarm the moment one is there
 * (ApproximateNumberOfMessagesVisible > 0). Encrypted at rest (SSE-SQS) and
 * reachable over TLS only. The alarm's action, the alarm topic, is added by
 * OperationalAlarms (alarms.ts) to every alarm of the stack.
 *
 * `eventTargetDelivery` and `asyncInvocationFailures` are the two ways this
 * stack sends to one: an EventBridge rule target's dead-letter queue, and a
 * Lambda function's on-failure destination for async invocations.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { LambdaFunctionProps } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag-acknowledgements';

export interface DeadLetterQueueProps {
  /** What is lost if nobody looks: the alarm's description begins with it. */
  holds: string;
}

export class DeadLetterQueue extends Construct {
  readonly queue: Queue;
  readonly depthAlarm: Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeNag(
      this.queue,
      'AwsSolutions-SQS3',
      'This queue is itself a dead-letter queue: what lands here is replayed by an operator (README, Operating Proofline), and a queue for its own failures would only move them.',
    );
    this.depthAlarm = new Alarm(this, 'DepthAlarm', {
      alarmDescription: `${props.holds} is waiting in dead-letter queue ${id}: see README, Operating Proofline, "Dead-letter queue not empty".`,
      metric: this.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      threshold: 0,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}

/** EventBridge's retries of a rule target before the event goes to the dead-letter queue. */
export const EVENT_TARGET_RETRY_ATTEMPTS = 185;
export const EVENT_TARGET_MAX_EVENT_AGE = Duration.hours(24);

/**
 * The props of a rule's Lambda target that keep an event EventBridge could not
 * deliver (the function throttled, missing or refusing): retried for a day,
 * then kept in `dlq`. Spread into `new LambdaFunction(fn, { ..., ...eventTargetDelivery(dlq) })`.
 */
export function eventTargetDelivery(dlq: DeadLetterQueue): Pick<LambdaFunctionProps, 'deadLetterQueue' | 'retryAttempts' | 'maxEventAge'> {
  return { deadLetterQueue: dlq.queue, retryAttempts: EVENT_TARGET_RETRY_ATTEMPTS, maxEventAge: EVENT_TARGET_MAX_EVENT_AGE };
}

/**
 * Keeps the async invocations of `fn` (EventBridge invokes asynchronously) that
 * still fail after Lambda's two retries: their event goes to `dlq`, wrapped in
 * Lambda's destination record (`requestPayload` is the event). Invocations a
 * state machine makes are synchronous and not affected.
 */
export function asyncInvocationFailures(fn: IFunction, dlq: DeadLetterQueue): void {
  fn.configureAsyncInvoke({ onFailure: new SqsDestination(dlq.queue), retryAttempts: 2, maxEventAge: Duration.hours(6) });
}
