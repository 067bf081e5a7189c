/**
 * Job-terminal events and webhook delivery: a custom EventBridge bus the
 * finaliser publishes on, a rule with exactly JOB_TERMINAL_PATTERN (the same
 * object the local runtime's bus evaluates) that invokes the webhook caller, and
 * the retry state machine from step-definitions/webhook-retries.asl.json.
 *
 * The caller starts the retry machine and the machine invokes the caller: a
 * circular reference in CloudFormation. It is broken by naming the machine
 * deterministically, so the caller's environment and grant use an ARN built
 * from the name instead of a reference to the machine.
 *
 * Nothing here may lose an event silently: an event the rules cannot deliver to
 * the caller waits in `eventDeadLetters`, and an event the caller kept failing
 * on (after Lambda's retries of an async invocation) in `callerFailures`; each
 * queue has its alarm (dead-letter-queue.ts).
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { JOB_DECISION_PATTERN, JOB_TERMINAL_PATTERN } from '../../step-definitions/events';
import { WORKERS } from '../../step-definitions/workers';
import type { EntryResolver } from '../paths';
import { AslStateMachine, readAsl } from './asl-state-machine';
import { asyncInvocationFailures, DeadLetterQueue, eventTargetDelivery } from './dead-letter-queue';
import { ProoflineNodejsFunction, workerFunctionProps } from './proofline-nodejs-function';
import type { Storage } from './storage';

export const WEBHOOK_RETRIES_ASL = 'step-definitions/webhook-retries.asl.json';

export interface JobEventsProps {
  storage: Storage;
  /** WEBHOOK_RETRY_SCHEDULE for the caller (comma-separated seconds); default the contract's. */
  webhookRetrySchedule?: readonly number[];
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

/** State machine names allow 80 characters; stack names up to 128. */
export const webhookStateMachineName = (stackName: string): string => `${stackName.slice(0, 60)}-webhook-retries`;

export class JobEvents extends Construct {
  readonly bus: EventBus;
  readonly webhookCaller: ProoflineNodejsFunction;
  readonly webhookStateMachine: StateMachine;
  readonly terminalRule: Rule;
  readonly decisionRule: Rule;
  /** Job events the rules could not hand to the webhook caller. */
  readonly eventDeadLetters: DeadLetterQueue;
  /** Job events the webhook caller failed on, after Lambda's retries. */
  readonly callerFailures: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: JobEventsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { table, bucket } = props.storage;

    this.bus = new EventBus(this, 'Bus', { description: 'Proofline job events (job terminal → webhooks).' });

    const machineName = webhookStateMachineName(stack.stackName);
    const machineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: machineName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    const spec = WORKERS.webhookCaller;
    this.webhookCaller = new ProoflineNodejsFunction(this, `${spec.key}Function`, {
      ...workerFunctionProps(spec),
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      environment: {
        TABLE_NAME: table.tableName,
        BUCKET_NAME: bucket.bucketName,
        WEBHOOK_STATE_MACHINE_ARN: machineArn,
        // Webhook URLs are customers' input: https only, never private addresses.
        NETWORK_MODE: 'cloud',
        ...(props.webhookRetrySchedule ? { WEBHOOK_RETRY_SCHEDULE: props.webhookRetrySchedule.join(',') } : {}),
      },
    });
    // Reads the job and the account's signing secret, records each delivery.
    props.storage.grantRecords(this.webhookCaller, 'readWrite');
    StateMachine.fromStateMachineName(this, 'WebhookRetriesByName', machineName).grantStartExecution(this.webhookCaller);

    this.webhookStateMachine = new AslStateMachine(this, 'WebhookRetries', {
      definition: readAsl(WEBHOOK_RETRIES_ASL),
      functions: { webhookCaller: this.webhookCaller },
      stateMachineName: machineName,
      logRetention: props.logRetention,
    }).stateMachine;

    this.eventDeadLetters = new DeadLetterQueue(this, 'WebhookEventDeadLetters', { holds: 'A job event EventBridge could not deliver to the webhook caller' });
    this.callerFailures = new DeadLetterQueue(this, 'WebhookCallerFailures', { holds: 'A job event the webhook caller failed on after its retries' });
    asyncInvocationFailures(this.webhookCaller, this.callerFailures);

    this.terminalRule = this.ruleToCaller('JobTerminalToWebhook', 'Delivers the job.completed webhook of a terminal job that has one.', JOB_TERMINAL_PATTERN);
    this.decisionRule = this.ruleToCaller(
      'JobDecisionToWebhook',
      'Delivers the job.approved / job.changes_requested webhook of a decision on a shared proof.',
      JOB_DECISION_PATTERN,
    );
  }

  /** A rule on the bus with exactly `pattern` (the object the local bus evaluates too), invoking the webhook caller. */
  private ruleToCaller(
    id: string,
    description: string,
    pattern: typeof JOB_TERMINAL_PATTERN | typeof JOB_DECISION_PATTERN,
  ): Rule {
    return new Rule(this, id, {
      description,
      eventBus: this.bus,
      eventPattern: { source: [...pattern.source], detailType: [...pattern['detail-type']], detail: pattern.detail },
      targets: [new LambdaFunction(this.webhookCaller, eventTargetDelivery(this.eventDeadLetters))],
    });
  }
}
