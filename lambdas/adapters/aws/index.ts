/**
 * The AWS adapters wired into a Services bundle: DynamoDB stores, the S3 blob
 * store, Step Functions orchestration, EventBridge events and the share-link
 * key from Secrets Manager. Lambda handlers
 * get this through platform/services; the local runtime calls it with
 * endpoints pointing at dynalite and s3rver and swaps in its own orchestrator,
 * scheduler and event bus.
 */
import type { RuntimeConfig } from '../../platform/config';
import type { Clock, Services } from '../../domain/ports';
import { systemClock, ulidIdSource } from '../../domain/ids';
import { createDynamoDocumentClient } from './dynamo-client';
import { createDynamoJobStore } from './dynamo-job-store';
import { createDynamoKeyStore } from './dynamo-key-store';
import { createDynamoUploadStore } from './dynamo-upload-store';
import { createDynamoProfileStore } from './dynamo-profile-store';
import { createDynamoIdempotencyStore } from './dynamo-idempotency-store';
import { createS3Client } from './s3-client';
import { createS3BlobStore } from './s3-blob-store';
import { createSfnClient, createSfnOrchestrator } from './sfn-orchestrator';
import { createSfnWebhookScheduler } from './sfn-webhook-scheduler';
import { createEventBridgeClient, createEventBridgePublisher } from './eventbridge-publisher';
import { createShareKeySource } from './share-signing-key';

export { provisionTable, provisionBucket } from './provision';
export { createDynamoDocumentClient } from './dynamo-client';
export { createS3Client } from './s3-client';
export { MAX_INLINE_RESULT_BYTES, InlineResultTooLargeError, fitsInline } from './inline-result-limit';

export interface AwsServicesOptions {
  /** Tests pass a controllable clock; everything time-dependent (expiry, modifiedAt) reads it. */
  clock?: Clock;
}

export function createAwsServices(config: RuntimeConfig, options: AwsServicesOptions = {}): Services {
  const clock = options.clock ?? systemClock;
  const dynamo = createDynamoDocumentClient(config);
  const s3 = createS3Client(config);
  const sfn = createSfnClient(config);
  const tableName = config.tableName;
  return {
    config,
    jobs: createDynamoJobStore({ client: dynamo, tableName, clock }),
    keys: createDynamoKeyStore({ client: dynamo, tableName }),
    uploads: createDynamoUploadStore({ client: dynamo, tableName, clock }),
    profiles: createDynamoProfileStore({ client: dynamo, tableName }),
    idempotency: createDynamoIdempotencyStore({ client: dynamo, tableName, clock }),
    // Stand-ins (s3rver) get single-key deletes; see S3BlobStoreOptions.batchDeletes.
    blobs: createS3BlobStore({ client: s3, bucket: config.bucketName, batchDeletes: !config.endpoints.s3 }),
    orchestrator: createSfnOrchestrator({ client: sfn, stateMachineArn: config.stateMachineArn, standardStateMachineArn: config.standardStateMachineArn }),
    webhookScheduler: createSfnWebhookScheduler({ client: sfn, webhookStateMachineArn: config.webhookStateMachineArn }),
    events: createEventBridgePublisher({ client: createEventBridgeClient(config), eventBusName: config.eventBusName }),
    shareKey: createShareKeySource(config),
    clock,
    ids: ulidIdSource(clock),
  };
}
