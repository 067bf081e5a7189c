/**
 * The S3 client of the blob store. Credentials come from the default chain (the
 * Lambda role in AWS; the local runtime and tests set S3RVER/S3RVER in the
 * environment for s3rver).
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { RuntimeConfig } from '../../platform/config';
import { traced } from '../../observability/tracer';

export function createS3Client(config: Pick<RuntimeConfig, 'region' | 'endpoints' | 's3ForcePathStyle'>): S3Client {
  // Traced where tracing is on. Presigning stays valid: X-Ray's X-Amzn-Trace-Id header is never signed (SigV4).
  return traced(new S3Client({
    region: config.region,
    ...(config.endpoints.s3 ? { endpoint: config.endpoints.s3 } : {}),
    forcePathStyle: config.s3ForcePathStyle,
    // By default the SDK sends uploads as aws-chunked bodies with checksum
    // trailers, which s3rver cannot parse. AWS accepts either form, so checksums
    // are sent only where an operation requires one (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }));
}
