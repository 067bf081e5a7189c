/**
 * A data directory from before the expiry index: the runtime's start rebuilds its table with every
 * index of the schema and every item kept, the jobs with an expiry on the new index
 * (local/table-indexes.ts), and finishes a rebuild an earlier start left half done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoJobStore } from '../../../lambdas/adapters/aws/dynamo-job-store';
import { provisionTable, tableDefinition } from '../../../lambdas/adapters/aws/provision';
import { TABLE_SCHEMA } from '../../../lambdas/adapters/aws/table-schema';
import { S3RVER_CREDENTIALS, startDynalite, startStandins, useStandInCredentials } from '../../../local/standins';

const TABLE = 'proofline-records';
const SPARE = `${TABLE}-rebuild`;
let dataDir: string;

beforeEach(() => {
  useStandInCredentials();
  dataDir = mkdtempSync(join(tmpdir(), 'proofline-table-indexes-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const clientOf = (endpoint: string) => new DynamoDBClient({ region: 'eu-west-1', endpoint, credentials: S3RVER_CREDENTIALS });

const JOB = { pk: 'JOB#job_1', sk: 'JOB', entity: 'job', id: 'job_1', accountId: 'acct-a', expiresAtIso: '2026-12-01T10:00:00.000Z', expiresAt: 1_796_205_600 };
const KEY = { pk: 'KEY#abc', sk: 'KEY', entity: 'key', gsi1pk: 'KEYS', gsi1sk: 'key_1', id: 'key_1' };
/** Jobs without the unfinished index's key, as a version before it wrote them: one running, one done. */
const RUNNING = { pk: 'JOB#job_2', sk: 'JOB', entity: 'job', id: 'job_2', accountId: 'acct-b', status: 'running' };
const DONE = { pk: 'JOB#job_3', sk: 'JOB', entity: 'job', id: 'job_3', accountId: 'acct-b', status: 'done' };
const TASKS = Array.from({ length: 30 }, (_, i) => ({ pk: 'JOB#job_1', sk: `TASK#task_${i}`, entity: 'task', id: `task_${i}`, tags: new Set(['a', 'b']) }));

/** The data directory as an earlier version left it: the table with gsi1 alone, and some items. */
async function olderDataDirectory(setUp?: (ddb: DynamoDBClient) => Promise<void>): Promise<void> {
  const dynalite = await startDynalite({ path: join(dataDir, 'dynamodb') });
  const ddb = clientOf(dynalite.endpoint);
  const current = tableDefinition(TABLE);
  const { partitionKey, sortKey, name } = TABLE_SCHEMA.expiryIndex;
  await ddb.send(
    new CreateTableCommand({
      ...current,
      AttributeDefinitions: current.AttributeDefinitions!.filter((a) => a.AttributeName !== partitionKey && a.AttributeName !== sortKey),
      GlobalSecondaryIndexes: current.GlobalSecondaryIndexes!.filter((i) => i.IndexName !== name),
    }),
  );
  await waitFor(ddb, TABLE, 'ACTIVE');
  const doc = DynamoDBDocumentClient.from(ddb);
  for (const Item of [JOB, RUNNING, DONE, KEY, ...TASKS]) await doc.send(new PutCommand({ TableName: TABLE, Item }));
  await setUp?.(ddb);
  ddb.destroy();
  await dynalite.stop();
}

/** dynalite answers CreateTable and DeleteTable before it has done them. */
async function waitFor(ddb: DynamoDBClient, tableName: string, state: 'ACTIVE' | 'gone'): Promise<void> {
  for (;;) {
    const status = await ddb.send(new DescribeTableCommand({ TableName: tableName })).then(
      (out) => out.Table?.TableStatus,
      () => 'gone',
    );
    if (status === state) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts the stand-ins on the data directory and reads the table's indexes and items. */
async function startAndRead() {
  const standins = await startStandins({ dataDir, region: 'eu-west-1', tableName: TABLE, bucketName: 'proofline-files' });
  const ddb = clientOf(standins.dynamodb);
  const doc = DynamoDBDocumentClient.from(ddb);
  try {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: TABLE }));
    const items = (await doc.send(new ScanCommand({ TableName: TABLE }))).Items ?? [];
    const store = createDynamoJobStore({ client: doc, tableName: TABLE, clock: { now: () => new Date() } });
    const expired = await store.listExpiredJobs(new Date('2026-12-02T00:00:00.000Z'));
    const tables = await ddb.send(new DescribeTableCommand({ TableName: SPARE })).then(
      () => 'spare left',
      () => 'no spare',
    );
    return { indexes: (Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort(), items, expired, tables };
  } finally {
    ddb.destroy();
    await standins.stop();
  }
}

describe('a table from before the expiry index', () => {
  it('is rebuilt at start with every index and every item, its jobs with an expiry found by the sweep', async () => {
    await olderDataDirectory();
    const { indexes, items, expired, tables } = await startAndRead();
    expect(indexes).toEqual([TABLE_SCHEMA.expiryIndex.name, TABLE_SCHEMA.gsi1.name, TABLE_SCHEMA.unfinishedIndex.name].sort());
    expect(items).toHaveLength(4 + TASKS.length);
    expect(items).toContainEqual({ ...JOB, [TABLE_SCHEMA.expiryIndex.partitionKey]: '2026-12-01' });
    // A job not yet terminal joins the unfinished index; a finished one does not.
    expect(items).toContainEqual({ ...RUNNING, [TABLE_SCHEMA.unfinishedIndex.partitionKey]: 'job' });
    expect(items).toContainEqual(DONE);
    expect(items).toContainEqual(KEY);
    expect(items).toContainEqual(TASKS[7]);
    expect(expired).toEqual([{ id: 'job_1', accountId: 'acct-a' }]);
    expect(tables).toBe('no spare');
  });

  it('is rebuilt again from the table when an earlier start stopped while copying it to the spare', async () => {
    await olderDataDirectory(async (ddb) => {
      await provisionTable(ddb, SPARE);
      await DynamoDBDocumentClient.from(ddb).send(new PutCommand({ TableName: SPARE, Item: KEY }));
    });
    const { indexes, items, tables } = await startAndRead();
    expect(indexes).toHaveLength(3);
    expect(items).toHaveLength(4 + TASKS.length);
    expect(tables).toBe('no spare');
  });

  it('is filled from the spare when an earlier start stopped after making the table anew', async () => {
    await olderDataDirectory(async (ddb) => {
      const doc = DynamoDBDocumentClient.from(ddb);
      await provisionTable(ddb, SPARE);
      for (const Item of [JOB, KEY, ...TASKS]) await doc.send(new PutCommand({ TableName: SPARE, Item }));
      await ddb.send(new DeleteTableCommand({ TableName: TABLE }));
      await waitFor(ddb, TABLE, 'gone');
      await provisionTable(ddb, TABLE);
    });
    const { indexes, items, expired, tables } = await startAndRead();
    expect(indexes).toHaveLength(3);
    expect(items).toHaveLength(2 + TASKS.length);
    expect(expired).toEqual([{ id: 'job_1', accountId: 'acct-a' }]);
    expect(tables).toBe('no spare');
  });
});
