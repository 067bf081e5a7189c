/**
 * The DynamoDB document client every store shares. One client per
 * createAwsServices call (so once per Lambda module), reused across invocations.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RuntimeConfig } from '../../platform/config';
import { traced } from '../../observability/tracer';

export function createDynamoDocumentClient(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): DynamoDBDocumentClient {
  // Traced (a subsegment per call) where tracing is on; the document client shares its middleware.
  const base = traced(new DynamoDBClient({
    region: config.region,
    // dynalite locally; unset in AWS, where the SDK resolves the regional endpoint.
    ...(config.endpoints.dynamodb ? { endpoint: config.endpoints.dynamodb } : {}),
  }));
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: {
      // Optional record fields may be undefined; DynamoDB rejects undefined values.
      removeUndefinedValues: true,
      // Records are plain objects; a class instance reaching the store is a bug
      // we want to see as an error rather than silently flattened.
      convertClassInstanceToMap: false,
    },
    unmarshallOptions: { wrapNumbers: false },
  });
}
