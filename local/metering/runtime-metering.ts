/**
 * The parts of metering the local runtime wires in that belong to no other
 * local module: the authoriser's invocations (the gateway authoriser calls
 * the handler only when its cache misses, as API Gateway does, so every call
 * here is a billed invocation) and the bytes the bucket holds.
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { AuthorizerHandler } from '../gateway-authorizer';
import { timedInvocation, type Meter } from './meter';

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
