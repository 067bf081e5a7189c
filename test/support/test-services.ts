/**
 * A complete Services bundle for tests: the REAL DynamoDB and S3 adapters over
 * a private dynalite and s3rver (ephemeral loopback ports, unique table and
 * bucket), plus recording fakes for the orchestrator, webhook scheduler and
 * event publisher, whose effects tests inspect instead of running a pipeline.
 *
 *   const t = await startTestServices();
 *   setServices(t.services);
 *   …
 *   afterAll(() => t.stop());
 */
import { randomBytes } from 'node:crypto';
import { loadConfig, type RuntimeConfig } from '../../lambdas/platform/config';
import type {
  Clock,
  EventPublisher,
  JobDecisionEvent,
  JobTerminalEvent,
  Orchestrator,
  PipelineInput,
  WebhookRetryInput,
  WebhookScheduler,
  Services,
} from '../../lambdas/domain/ports';
import { createAwsServices, createDynamoDocumentClient, createS3Client, provisionBucket, provisionTable } from '../../lambdas/adapters/aws';
import { startDynalite } from './dynalite';
import { startS3rver, useStandInCredentials } from './s3rver';

export type RecordingOrchestrator = Orchestrator & { started: PipelineInput[]; stopped: string[]; continued: PipelineInput[] };
export type RecordingScheduler = WebhookScheduler & { scheduled: WebhookRetryInput[] };
export type RecordingPublisher = EventPublisher & { published: JobTerminalEvent[]; decisions: JobDecisionEvent[] };

export interface TestServices {
  services: Services;
  orchestrator: RecordingOrchestrator;
  scheduler: RecordingScheduler;
  events: RecordingPublisher;
  config: RuntimeConfig;
  stop(): Promise<void>;
}

export interface TestServicesOptions {
  config?: Partial<RuntimeConfig>;
  /** A controllable clock for the stores and services.clock (default: the system clock). */
  clock?: Clock;
}

export function recordingOrchestrator(): RecordingOrchestrator {
  const started: PipelineInput[] = [];
  const stopped: string[] = [];
  const continued: PipelineInput[] = [];
  return {
    started,
    stopped,
    continued,
    async startJob(input) {
      started.push(structuredClone(input));
      return `local:${input.jobId}`;
    },
    async continueJob(input) {
      continued.push(structuredClone(input));
      return `local-standard:${input.jobId}`;
    },
    async stop(workflowId) {
      stopped.push(workflowId);
    },
  };
}

export function recordingScheduler(): RecordingScheduler {
  const scheduled: WebhookRetryInput[] = [];
  return {
    scheduled,
    async scheduleRetry(input) {
      scheduled.push({ ...input });
    },
  };
}

export function recordingPublisher(): RecordingPublisher {
  const published: JobTerminalEvent[] = [];
  const decisions: JobDecisionEvent[] = [];
  return {
    published,
    decisions,
    async publishJobTerminal(event) {
      published.push({ ...event });
    },
    async publishJobDecision(event) {
      decisions.push({ ...event });
    },
  };
}

export async function startTestServices(options: TestServicesOptions = {}): Promise<TestServices> {
  useStandInCredentials();
  const [dynamo, s3] = await Promise.all([startDynalite(), startS3rver()]);
  const suffix = randomBytes(6).toString('hex');
  const defaults = loadConfig({});
  const config: RuntimeConfig = {
    ...defaults,
    region: 'us-east-1',
    tableName: `proofline-test-${suffix}`,
    bucketName: `proofline-test-${suffix}`,
    stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:proofline-test-jobs',
    webhookStateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:proofline-test-webhooks',
    s3ForcePathStyle: true,
    networkMode: 'local',
    // Share links are signed with a key of this run (in the cloud: a Secrets Manager secret).
    shareSigningKey: randomBytes(32).toString('hex'),
    ...options.config,
    endpoints: { dynamodb: dynamo.endpoint, s3: s3.endpoint, ...options.config?.endpoints },
  };

  const provisionDynamo = createDynamoDocumentClient(config);
  const provisionS3 = createS3Client(config);
  try {
    await Promise.all([provisionTable(provisionDynamo, config.tableName), provisionBucket(provisionS3, config.bucketName)]);
  } catch (error) {
    await Promise.all([dynamo.stop(), s3.stop()]);
    throw error;
  } finally {
    provisionDynamo.destroy();
    provisionS3.destroy();
  }

  const orchestrator = recordingOrchestrator();
  const scheduler = recordingScheduler();
  const events = recordingPublisher();
  const services: Services = {
    ...createAwsServices(config, options.clock ? { clock: options.clock } : {}),
    orchestrator,
    webhookScheduler: scheduler,
    events,
  };
  return {
    services,
    orchestrator,
    scheduler,
    events,
    config,
    async stop() {
      await Promise.all([dynamo.stop(), s3.stop()]);
    },
  };
}
