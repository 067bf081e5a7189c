/**
 * The whole service in one stack: storage, the job pipeline, job events and
 * webhooks, and the public API. Its outputs are what the keys CLI and the e2e
 * suite read from `aws cloudformation describe-stacks`.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { EntryResolver } from './paths';
import { Api } from './constructs/api';
import { JobEvents } from './constructs/job-events';
import { Pipeline } from './constructs/pipeline';
import { Storage } from './constructs/storage';

export interface ProoflineStackProps extends StackProps {
  /** Keep the bucket and table when the stack is deleted; default true. */
  retainData?: boolean;
  /** Browser origins allowed to use presigned upload/download URLs directly; default none. */
  corsAllowedOrigins?: string[];
  /**
   * The origin the web console is served from, allowed to upload to the bucket from a browser
   * (Storage.allowConsoleOrigin); default none, until the stack serves the console itself.
   */
  consoleOrigin?: string;
  /** API stage name (first path segment of ApiUrl); default `v1`. */
  stageName?: string;
  /** Stage throttling; defaults 100 requests/s, burst 200. */
  throttlingRateLimit?: number;
  throttlingBurstLimit?: number;
  /** API Gateway access and execution logs (creates the account's API Gateway CloudWatch role); default off. */
  apiAccessLogs?: boolean;
  /** Webhook retry delays in seconds; default the contract's (5 s … 10 h). */
  webhookRetrySchedule?: readonly number[];
  /** Retention of every log group; default one month. */
  logRetention?: RetentionDays;
  /**
   * Tests only: where to find a Lambda entry. The app never sets it, so a real
   * synth fails on any missing handler module instead of deploying a stand-in.
   */
  resolveEntry?: EntryResolver;
}

export class ProoflineStack extends Stack {
  readonly storage: Storage;
  readonly events: JobEvents;
  readonly pipeline: Pipeline;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: ProoflineStackProps = {}) {
    super(scope, id, props);
    const shared = { logRetention: props.logRetention, resolveEntry: props.resolveEntry };

    this.storage = new Storage(this, 'Storage', {
      retainData: props.retainData,
      corsAllowedOrigins: props.corsAllowedOrigins,
      consoleOrigin: props.consoleOrigin,
    });
    this.events = new JobEvents(this, 'Events', {
      storage: this.storage,
      webhookRetrySchedule: props.webhookRetrySchedule,
      ...shared,
    });
    this.pipeline = new Pipeline(this, 'Pipeline', {
      storage: this.storage,
      eventBus: this.events.bus,
      ...shared,
    });
    this.api = new Api(this, 'Api', {
      storage: this.storage,
      pipeline: this.pipeline.stateMachine,
      stageName: props.stageName,
      throttlingRateLimit: props.throttlingRateLimit,
      throttlingBurstLimit: props.throttlingBurstLimit,
      accessLogs: props.apiAccessLogs,
      ...shared,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL of the API (ends with the stage and a slash).' });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', { value: this.pipeline.stateMachine.stateMachineArn });
    new CfnOutput(this, 'EventBusName', { value: this.events.bus.eventBusName });
    new CfnOutput(this, 'WebhookStateMachineArn', { value: this.events.webhookStateMachine.stateMachineArn });
  }
}
