/** Lists stored keys under a prefix (the BlobStore port has no listing; tests need one to count outputs). */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createS3Client } from '../../../../lambdas/adapters/aws';
import type { RuntimeConfig } from '../../../../lambdas/platform/config';

export async function listKeys(config: RuntimeConfig, prefix: string): Promise<string[]> {
  const client = createS3Client(config);
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    return keys.sort();
  } finally {
    client.destroy();
  }
}
