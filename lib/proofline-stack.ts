/**
 * The whole service in one stack: storage, the job pipeline, job events and
 * webhooks, the public API, and the web console with the API behind one
 * CloudFront distribution. Its outputs are what the keys CLI and the e2e
 * suite read from `aws cloudformation describe-stacks`.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { EntryResolver } from './paths';
import { Api } from './constructs/api';
import { ConsoleSite } from './constructs/console-site';
import { PublicDistribution } from './constructs/public-distribution';
import { JobEvents } from './constructs/job-events';
import { Pipeline } from './constructs/pipeline';
import { Storage } from './constructs/storage';

export interface ProoflineStackProps extends StackProps {
  /** Keep the bucket and table when the stack is deleted; default true. */
  retainData?: boolean;
  /** Browser origins allowed to use presigned upload/download URLs directly; default none. */
  corsAllowedOrigins?: string[];
  /**
   * The origin the web console is served from when it is not the distribution's own (a custom
   * domain, `https://console.example.com`), allowed to upload to the bucket from a browser
   * (Storage.allowConsoleOrigin); default `https://*.cloudfront.net`, see below.
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
  readonly consoleSite: ConsoleSite;
  readonly distribution: PublicDistribution;
  /**
   * `https://<id>.cloudfront.net`, no trailing slash: where the console is and, on the same
   * origin, the API (`/jobs`, …). The API's functions get it as PUBLIC_URL.
   */
  readonly publicUrl: string;

  constructor(scope: Construct, id: string, props: ProoflineStackProps = {}) {
    super(scope, id, props);
    const shared = { logRetention: props.logRetention, resolveEntry: props.resolveEntry };

    this.storage = new Storage(this, 'Storage', {
      retainData: props.retainData,
      corsAllowedOrigins: props.corsAllowedOrigins,
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

    this.consoleSite = new ConsoleSite(this, 'Console', { logRetention: props.logRetention });
    this.distribution = new PublicDistribution(this, 'Public', {
      consoleBucket: this.consoleSite.bucket,
      restApi: this.api.restApi,
      apiStageName: this.api.stageName,
      filesBucket: this.storage.bucket,
    });
    this.publicUrl = this.distribution.url;
    // The console's uploads go straight to the bucket. Its CORS rule cannot name this distribution:
    // the distribution's security headers name the bucket (the CSP's connect-src and img-src), and
    // CloudFormation refuses the cycle. So, unless a custom origin is given, any CloudFront origin:
    // CORS only decides which pages may read the bucket's answers, and every request still needs
    // its presigned signature, which only our API hands out.
    this.storage.allowConsoleOrigin(props.consoleOrigin ?? 'https://*.cloudfront.net');
    for (const fn of Object.values(this.api.handlers)) fn.addEnvironment('PUBLIC_URL', this.publicUrl);

    new CfnOutput(this, 'ConsoleUrl', {
      value: this.publicUrl,
      description: 'The web console; the API answers on the same origin (ConsoleUrl/jobs, …), as at ApiUrl.',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL of the API (ends with the stage and a slash).' });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', { value: this.pipeline.stateMachine.stateMachineArn });
    new CfnOutput(this, 'EventBusName', { value: this.events.bus.eventBusName });
    new CfnOutput(this, 'WebhookStateMachineArn', { value: this.events.webhookStateMachine.stateMachineArn });
  }
}
