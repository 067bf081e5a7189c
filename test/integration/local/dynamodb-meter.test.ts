/**
 * The counting proxy in front of dynalite (local/metering/dynamodb-meter.ts)
 * against a real dynalite with the service's table: the request units each
 * operation the service uses is billed, as DynamoDB bills them, and the
 * caller's answers unchanged.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite, type StandIn } from '../../support/dynalite';
import { useStandInCredentials } from '../../support/s3rver';
import { createDynamoDocumentClient } from '../../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../../lambdas/adapters/aws/provision';
import { TABLE_SCHEMA } from '../../../lambdas/adapters/aws/table-schema';
import { startDynamoDbMeter, type DynamoDbMeter } from '../../../local/metering/dynamodb-meter';

const TableName = 'metered';
let dynalite: StandIn;
let meter: DynamoDbMeter;
let client: DynamoDBDocumentClient;
let consumed: { readUnits: number; writeUnits: number }[] = [];
const units = () => consumed.reduce((s, u) => ({ readUnits: s.readUnits + u.readUnits, writeUnits: s.writeUnits + u.writeUnits }), { readUnits: 0, writeUnits: 0 });

/** A job item: in the account index (gsi1). */
const jobItem = (id: string, extra: Record<string, unknown> = {}) => ({ pk: `JOB#${id}`, sk: 'JOB', gsi1pk: 'ACCOUNT#a', gsi1sk: `2026-01-01#${id}`, status: 'running', ...extra });

beforeAll(async () => {
  useStandInCredentials();
  dynalite = await startDynalite();
  meter = await startDynamoDbMeter({
    upstream: dynalite.endpoint,
    tableKeys: { partitionKey: TABLE_SCHEMA.partitionKey, sortKey: TABLE_SCHEMA.sortKey },
    indexes: [TABLE_SCHEMA.gsi1],
    consumed: (u) => consumed.push(u),
  });
  client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: meter.endpoint } });
  await provisionTable(client, TableName);
});

afterAll(async () => {
  client?.destroy();
  await meter?.close();
  await dynalite?.stop();
});

beforeEach(() => {
  consumed = [];
});

describe('the DynamoDB counting proxy', () => {
  it('bills a put of a small item outside the index one write unit', async () => {
    await client.send(new PutCommand({ TableName, Item: { pk: 'IDEM#1', sk: 'IDEM', v: 1 } }));
    expect(units()).toEqual({ readUnits: 0, writeUnits: 1 });
  });

  it('adds the index write for an item that enters the account index', async () => {
    await client.send(new PutCommand({ TableName, Item: jobItem('1') }));
    expect(units()).toEqual({ readUnits: 0, writeUnits: 2 });
  });

  it('bills an update by the larger item, plus the index write of the changed entry', async () => {
    await client.send(new PutCommand({ TableName, Item: jobItem('2') }));
    consumed = [];
    await client.send(new UpdateCommand({ TableName, Key: { pk: 'JOB#2', sk: 'JOB' }, UpdateExpression: 'SET #s = :s, #d = :d', ExpressionAttributeNames: { '#s': 'status', '#d': 'data' }, ExpressionAttributeValues: { ':s': 'done', ':d': 'x'.repeat(1500) } }));
    expect(units()).toEqual({ readUnits: 0, writeUnits: 4 });
  });

  it('bills a failed conditional write, and hands the caller its error unchanged', async () => {
    await client.send(new PutCommand({ TableName, Item: jobItem('3') }));
    consumed = [];
    await expect(client.send(new PutCommand({ TableName, Item: jobItem('3'), ConditionExpression: 'attribute_not_exists(pk)' }))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(units()).toEqual({ readUnits: 0, writeUnits: 1 });
  });

  it('bills a delete, and the removal from the index', async () => {
    await client.send(new PutCommand({ TableName, Item: jobItem('4') }));
    consumed = [];
    await client.send(new DeleteCommand({ TableName, Key: { pk: 'JOB#4', sk: 'JOB' } }));
    expect(units()).toEqual({ readUnits: 0, writeUnits: 2 });
  });

  it('bills a batch of puts item by item', async () => {
    await client.send(new BatchWriteCommand({ RequestItems: { [TableName]: [1, 2, 3].map((n) => ({ PutRequest: { Item: { pk: `TASK#${n}`, sk: 'TASK' } } })) } }));
    expect(units()).toEqual({ readUnits: 0, writeUnits: 3 });
  });

  it('bills reads as dynalite reports them: half a unit per 4 KB eventually consistent, one consistent', async () => {
    await client.send(new GetCommand({ TableName, Key: { pk: 'JOB#1', sk: 'JOB' } }));
    await client.send(new GetCommand({ TableName, Key: { pk: 'JOB#1', sk: 'JOB' }, ConsistentRead: true }));
    await client.send(new GetCommand({ TableName, Key: { pk: 'NONE', sk: 'NONE' } }));
    expect(units()).toEqual({ readUnits: 2, writeUnits: 0 });
  });

  it('bills queries of the index and scans', async () => {
    const listed = await client.send(new QueryCommand({ TableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :a', ExpressionAttributeValues: { ':a': 'ACCOUNT#a' } }));
    expect(listed.Items?.length).toBeGreaterThan(0);
    await client.send(new ScanCommand({ TableName }));
    expect(units().readUnits).toBeGreaterThan(0);
    expect(consumed).toHaveLength(2);
  });

  it('leaves a caller that asked for the consumed capacity its answer', async () => {
    const got = await client.send(new GetCommand({ TableName, Key: { pk: 'JOB#1', sk: 'JOB' }, ReturnConsumedCapacity: 'TOTAL' }));
    expect(got.ConsumedCapacity?.CapacityUnits).toBe(0.5);
    expect(got.Item?.status).toBe('running');
  });
});
