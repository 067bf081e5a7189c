/**
 * Creates the table and bucket where nothing else does: the local runtime and
 * tests provision dynalite and s3rver with these (CDK creates the real ones
 * from the same TABLE_SCHEMA). Both are idempotent, so a restart over existing
 * data is fine.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type Projection,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { TABLE_SCHEMA } from './table-schema';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/** A table creation that has not become ACTIVE in this long is a fault. */
const ACTIVE_TIMEOUT_MS = 60_000;

/** The table as TABLE_SCHEMA describes it: the CreateTable request of the CDK table's keys and indexes. */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, gsi1, expiryIndex, unfinishedIndex } = TABLE_SCHEMA;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey, expiryIndex.partitionKey, expiryIndex.sortKey, unfinishedIndex.partitionKey, 'id'].map((AttributeName) => ({
      AttributeName,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      index(gsi1, { ProjectionType: 'ALL' }),
      index(expiryIndex, { ProjectionType: 'INCLUDE', NonKeyAttributes: [...expiryIndex.projectedAttributes] }),
      index(unfinishedIndex, { ProjectionType: 'KEYS_ONLY' }),
    ],
  };
}

function index(keys: { name: string; partitionKey: string; sortKey: string }, Projection: Projection): GlobalSecondaryIndex {
  return {
    IndexName: keys.name,
    KeySchema: [
      { AttributeName: keys.partitionKey, KeyType: 'HASH' },
      { AttributeName: keys.sortKey, KeyType: 'RANGE' },
    ],
    Projection,
  };
}

export async function provisionTable(client: DynamoDBClient | DynamoDBDocumentClient, tableName: string): Promise<void> {
  // The document client forwards low-level commands unchanged.
  const ddb = client as DynamoDBClient;
  try {
    await ddb.send(new CreateTableCommand(tableDefinition(tableName)));
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
