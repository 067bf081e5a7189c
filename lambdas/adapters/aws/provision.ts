/**
 * Creates the table and bucket where nothing else does: the local runtime and
 * tests provision dynalite and s3rver with these (CDK creates the real ones
 * from the same TABLE_SCHEMA). Both are idempotent, so a restart over existing
 * data is fine.
 */
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { TABLE_SCHEMA } from './table-schema';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/** A table creation that has not become ACTIVE in this long is a fault. */
const ACTIVE_TIMEOUT_MS = 60_000;

export async function provisionTable(client: DynamoDBClient | DynamoDBDocumentClient, tableName: string): Promise<void> {
  // The document client forwards low-level commands unchanged.
  const ddb = client as DynamoDBClient;
  const { partitionKey, sortKey, gsi1, expiryIndex } = TABLE_SCHEMA;
  try {
    await ddb.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey, expiryIndex.partitionKey, expiryIndex.sortKey].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: gsi1.name,
            KeySchema: [
              { AttributeName: gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
          {
            IndexName: expiryIndex.name,
            KeySchema: [
              { AttributeName: expiryIndex.partitionKey, KeyType: 'HASH' },
              { AttributeName: expiryIndex.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...expiryIndex.projectedAttributes] },
          },
        ],
      }),
    );
  } catch (error) {
    if (errorName(error) !== 'ResourceInUseException') throw error;
  }
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  for (;;) {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`table ${tableName} is still ${Table?.TableStatus} after ${ACTIVE_TIMEOUT_MS} ms`);
    await sleep(100);
  }
}

export async function provisionBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const name = errorName(error);
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
}
