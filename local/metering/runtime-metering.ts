/**
 * The parts of metering the local runtime wires in that belong to no other
 * local module: the counting proxy in front of dynalite, the bytes the bucket
 * holds, and the authoriser's invocations (the gateway authoriser calls the
 * handler only when its cache misses, as API Gateway does, so every call here
 * is a billed invocation).
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import type { AuthorizerHandler } from '../gateway-authorizer';
import { S3RVER_CREDENTIALS, s3rverClient, type Standins } from '../standins';
import { startDynamoDbMeter } from './dynamodb-meter';
import { timedInvocation, type Meter } from './meter';

/**
 * Starts the DynamoDB counting proxy (the endpoint the runtime's services and
 * threads are to use instead of dynalite's) and gives the meter a way to read
 * the bucket's size.
 */
export async function meterStandins(
  meter: Meter,
  o: { standins: Standins; region: string; bucketName: string; log: (message: string, error?: unknown) => void },
): Promise<{ dynamodbEndpoint: string; close(): Promise<void> }> {
  const proxy = await startDynamoDbMeter({
    upstream: o.standins.dynamodb,
    tableKeys: { partitionKey: TABLE_SCHEMA.partitionKey, sortKey: TABLE_SCHEMA.sortKey },
    indexes: [
      TABLE_SCHEMA.gsi1,
      { ...TABLE_SCHEMA.expiryIndex, projected: [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey, ...TABLE_SCHEMA.expiryIndex.projectedAttributes] },
      { ...TABLE_SCHEMA.unfinishedIndex, projected: [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey] },
    ],
    consumed: (units) => meter.dynamodbConsumed(units),
    log: o.log,
  });
  const bucket = s3rverClient({ endpoint: o.standins.s3rver, token: o.standins.s3rverToken, region: o.region, credentials: S3RVER_CREDENTIALS });
  meter.storedBytes = () => bucketBytes(bucket, o.bucketName);
  return {
    dynamodbEndpoint: proxy.endpoint,
    async close() {
      bucket.destroy();
      await proxy.close();
    },
  };
}

/** The authoriser function's memory, as lib/constructs/api.ts deploys it (AuthorizerFunction). */
export const AUTHORIZER_MEMORY_MB = 512;

/** The authoriser handler loader, with each call of the handler reported as a Lambda invocation. */
export function meteredAuthorizer(meter: Pick<Meter, 'lambdaInvoked'>, load: () => Promise<AuthorizerHandler>): () => Promise<AuthorizerHandler> {
  return async () => {
    const handler = await load();
    return (event) => timedInvocation(meter.lambdaInvoked, { functionName: 'authorizer', memoryMb: AUTHORIZER_MEMORY_MB }, () => handler(event));
  };
}

/** Bytes of every object in the bucket, listed by a client of the storage stand-in itself (so not metered). */
export async function bucketBytes(client: S3Client, bucket: string): Promise<number> {
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const object of page.Contents ?? []) bytes += object.Size ?? 0;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return bytes;
}
