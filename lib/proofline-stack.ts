/**
 * The whole service in one stack: storage, the job pipeline, job events and
 * webhooks, the public API, the web console with the API behind one
 * CloudFront distribution, and what operators watch it with (alarms, a topic, a dashboard). Its outputs are what the keys CLI and the e2e
 * suite read from `aws cloudformation describe-stacks`.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { EntryResolver } from './paths';
import { AccessLogsBucket } from './constructs/access-logs-bucket';
import { OperationalAlarms, type AlarmThresholds } from './constructs/alarms';
import { OperationsDashboard } from './constructs/dashboard';
import { RunningJobAge } from './constructs/running-job-age';
import { Api } from './constructs/api';
import { ApiWebAcl } from './constructs/api-web-acl';
import { acknowledgeNag } from './constructs/nag-acknowledgements';
import { ConsoleSite } from './constructs/console-site';
import { PublicDistribution } from './constructs/public-distribution';
import { JobEvents } from './constructs/job-events';
import { Pipeline } from './constructs/pipeline';
import { RetentionSweep } from './constructs/retention-sweep';
import { DEFAULT_RETENTION_DAYS, isValidRetentionDays, RETENTION_DAYS_RULE } from '../lambdas/domain/retention';
import { Storage } from './constructs/storage';

export interface ProoflineStackProps extends StackProps {
  /** Keep the bucket and table when the stack is deleted; default true. */
  retainData?: boolean;
  /** Browser origins allowed to use presigned upload/download URLs directly; default none. */
  corsAllowedOrigins?: string[];
  /**
   * The origin the web console is served from when it is not the distribution's own (a custom
   * domain, `https://console.example.com`): allowed to upload to the bucket from a browser
   * (Storage.allowConsoleOrigin; default `https://*.cloudfront.net`, see below), and where share
   * links point (PUBLIC_ORIGIN; default the distribution's URL).
   */
  consoleOrigin?: string;
  /** API stage name (first path segment of ApiUrl); default `v1`. */
  stageName?: string;
  /** Stage throttling; defaults 100 requests/s, burst 200. */
  throttlingRateLimit?: number;
  throttlingBurstLimit?: number;
  /** API Gateway access and execution logs (creates the account's API Gateway CloudWatch role); default on. */
  apiAccessLogs?: boolean;
  /**
   * Days after its creation that a job, its records and its files are deleted (RETENTION_DAYS of the
   * API's functions; default 30); an account may have its own (`npm run keys -- retention`).
   */
  retentionDays?: number;
  /** An AWS WAF web ACL on the API stage (managed rule groups and a rate rule, ./constructs/api-web-acl.ts); default off. */
  webAcl?: boolean;
  /** With webAcl: requests per client address in 5 minutes before WAF blocks it; default 2000. */
  webAclRateLimit?: number;
  /** Webhook retry delays in seconds; default the contract's (5 s … 10 h). */
  webhookRetrySchedule?: readonly number[];
  /** Where alarms are sent by e-mail (an SNS subscription the address must confirm); default none. */
  alarmEmail?: string;
  /** Alarm thresholds; defaults in ./constructs/alarms.ts (DEFAULT_ALARM_THRESHOLDS). */
  alarmThresholds?: AlarmThresholds;
  /** Retention of every log group; default one month. */
  logRetention?: RetentionDays;
  /**
   * Tests only: where to find a Lambda entry. The app never sets it, so a real
   * synth fails on any missing handler module instead of deploying a stand-in.
   */
  resolveEntry?: EntryResolver;
}

export class ProoflineStack extends Stack {
  readonly accessLogs: AccessLogsBucket;
  readonly storage: Storage;
  readonly events: JobEvents;
  readonly pipeline: Pipeline;
  readonly api: Api;
  readonly retention: RetentionSweep;
  readonly consoleSite: ConsoleSite;
  readonly distribution: PublicDistribution;
  readonly webAcl?: ApiWebAcl;
  readonly runningJobAge: RunningJobAge;
  readonly dashboard: OperationsDashboard;
  readonly alarms: OperationalAlarms;
  /**
   * `https://<id>.cloudfront.net`, no trailing slash: where the console is and, on the same
   * origin, the API (`/jobs`, …). The API's functions get it as PUBLIC_ORIGIN (unless `consoleOrigin` names the console's own domain).
   */
  readonly publicUrl: string;

  constructor(scope: Construct, id: string, props: ProoflineStackProps = {}) {
    super(scope, id, props);
    const shared = { logRetention: props.logRetention, resolveEntry: props.resolveEntry };

    this.accessLogs = new AccessLogsBucket(this, 'AccessLogs', { retainData: props.retainData });
    this.storage = new Storage(this, 'Storage', {
      retainData: props.retainData,
      corsAllowedOrigins: props.corsAllowedOrigins,
      accessLogsBucket: this.accessLogs.bucket,
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
    // The key share links are signed with: generated by Secrets Manager, never in the template,
    // read by the functions routes.ts says use it. Rotating it revokes every link.
    const shareSigningSecret = new Secret(this, 'ShareSigningKey', {
      description: 'Proofline: the HMAC key share links to proof pages are signed with (docs/api.md §3, Share links).',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    acknowledgeNag(
      shareSigningSecret,
      'AwsSolutions-SMG4',
      'Rotating this key revokes every share link customers were sent, so it is rotated by hand (a new secret value) when a leak is suspected, never on a schedule.',
    );
    this.api = new Api(this, 'Api', {
      storage: this.storage,
      pipeline: this.pipeline.stateMachine,
      standardPipeline: this.pipeline.standardStateMachine,
      shareSigningSecret,
      eventBus: this.events.bus,
      stageName: props.stageName,
      throttlingRateLimit: props.throttlingRateLimit,
      throttlingBurstLimit: props.throttlingBurstLimit,
      accessLogs: props.apiAccessLogs,
      ...shared,
    });

    const retentionDays = props.retentionDays ?? DEFAULT_RETENTION_DAYS;
    if (!isValidRetentionDays(retentionDays)) throw new Error(`retentionDays must be ${RETENTION_DAYS_RULE}, got ${retentionDays}`);
    // Jobs get their expiry where they are created: in the API's functions.
    for (const fn of Object.values(this.api.handlers)) fn.addEnvironment('RETENTION_DAYS', String(retentionDays));
    this.retention = new RetentionSweep(this, 'Retention', { storage: this.storage, standardPipeline: this.pipeline.standardStateMachine, ...shared });

    if (props.webAcl) {
      this.webAcl = new ApiWebAcl(this, 'ApiWebAcl', { stage: this.api.restApi.deploymentStage, rateLimitPer5Minutes: props.webAclRateLimit });
    } else {
      acknowledgeNag(
        this.api.restApi.deploymentStage,
        'AwsSolutions-APIG3',
        'The WAF web ACL is a deployment option (context webAcl), off by default: it is billed per request and per rule, and the stage is throttled and every costly route needs a key.',
      );
    }

    this.consoleSite = new ConsoleSite(this, 'Console', { logRetention: props.logRetention, accessLogsBucket: this.accessLogs.bucket });
    this.distribution = new PublicDistribution(this, 'Public', {
      consoleBucket: this.consoleSite.bucket,
      restApi: this.api.restApi,
      apiStageName: this.api.stageName,
      filesBucket: this.storage.bucket,
      logBucket: this.accessLogs.bucket,
    });
    this.publicUrl = this.distribution.url;
    // The console's uploads go straight to the bucket. Its CORS rule cannot name this distribution:
    // the distribution's security headers name the bucket (the CSP's connect-src and img-src), and
    // CloudFormation refuses the cycle. So, unless a custom origin is given, any CloudFront origin:
    // CORS only decides which pages may read the bucket's answers, and every request still needs
    // its presigned signature, which only our API hands out.
    this.storage.allowConsoleOrigin(props.consoleOrigin ?? 'https://*.cloudfront.net');
    // Where share links point (the /proof page): the distribution, whichever origin the request came
    // in by (the API's own URL serves no page), unless the console has a domain of its own.
    for (const fn of Object.values(this.api.handlers)) fn.addEnvironment('PUBLIC_ORIGIN', props.consoleOrigin ?? this.publicUrl);

    this.runningJobAge = new RunningJobAge(this, 'RunningJobAge', { storage: this.storage, ...shared });
    // Last: both find the stack's functions, state machines, queues and alarms in the construct tree.
    this.dashboard = new OperationsDashboard(this, 'Operations', { api: this.api.restApi });
    this.alarms = new OperationalAlarms(this, 'Alarms', {
      api: this.api.restApi,
      table: this.storage.table,
      expectedErrors: [this.api.authorizerFunction],
      email: props.alarmEmail,
      thresholds: props.alarmThresholds,
    });

    new CfnOutput(this, 'ConsoleUrl', {
      value: this.publicUrl,
      description: 'The web console; the API answers on the same origin (ConsoleUrl/jobs, …), as at ApiUrl.',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL of the API (ends with the stage and a slash).' });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'StateMachineArn', { value: this.pipeline.stateMachine.stateMachineArn });
    new CfnOutput(this, 'StandardStateMachineArn', { value: this.pipeline.standardStateMachine.stateMachineArn });
    new CfnOutput(this, 'EventBusName', { value: this.events.bus.eventBusName });
    new CfnOutput(this, 'WebhookStateMachineArn', { value: this.events.webhookStateMachine.stateMachineArn });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'The SNS topic every alarm notifies; subscribe to it (or deploy with -c alarmEmail=…).' });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName });
    // What the README's runbook replays dead-lettered job events with.
    new CfnOutput(this, 'WebhookCallerFunctionName', { value: this.events.webhookCaller.functionName });
    new CfnOutput(this, 'WebhookEventDeadLettersUrl', {
      value: this.events.eventDeadLetters.queue.queueUrl,
      description: 'Job events EventBridge could not deliver to the webhook caller (message body: the event).',
    });
    new CfnOutput(this, 'WebhookCallerFailuresUrl', {
      value: this.events.callerFailures.queue.queueUrl,
      description: "Job events the webhook caller failed on after Lambda's retries (message body: a destination record, requestPayload is the event).",
    });
  }
}
