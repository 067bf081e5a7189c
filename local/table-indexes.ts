/**
 * A data directory from before an index of TABLE_SCHEMA existed (the retention sweep's `expiry`,
 * the running-job age's `unfinished`)
 * has its table without it, and dynalite cannot add an index to a table: UpdateTable accepts
 * GlobalSecondaryIndexUpdates and ignores them. So the runtime rebuilds the table at start: every
 * item copied to a spare table made from the schema, the table made anew, the items copied back.
 * Job items get the indexes' keys on the way, as dynamo-items.ts jobToItem gives them.
 *
 * A start interrupted at any point finishes the work at the next: while the table lacks an index
 * it still holds every item, and the copy starts over; once it has them all, the spare holds every
 * item until it has been copied back and deleted.
 */
import { DeleteTableCommand, DescribeTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { provisionTable, tableDefinition } from '../lambdas/adapters/aws/provision';
import { batchWriteAll, scanAll } from '../lambdas/adapters/aws/dynamo-batch';
import { expiryDay, UNFINISHED_KEY, UNFINISHED_VALUE, type Item } from '../lambdas/adapters/aws/dynamo-items';
import { isTerminal, type Status } from '../lambdas/domain/model';
import { TABLE_SCHEMA } from '../lambdas/adapters/aws/table-schema';

/** Every index the table is provisioned with. */
const SCHEMA_INDEXES = (tableDefinition('table').GlobalSecondaryIndexes ?? []).map((i) => i.IndexName ?? '');

/** Gives the (existing) table every index of TABLE_SCHEMA, keeping its items; nothing when it has them. */
export async function addMissingIndexes(ddb: DynamoDBClient, tableName: string): Promise<void> {
  const client = DynamoDBDocumentClient.from(ddb);
  const spare = `${tableName}-rebuild`;
  const indexes = await indexNames(ddb, tableName);
  const missing = indexes !== null && SCHEMA_INDEXES.some((name) => !indexes.includes(name));
  const spareLeft = (await indexNames(ddb, spare)) !== null;
  if (!missing && !spareLeft) return;
  if (missing) {
    if (spareLeft) await deleteTable(ddb, spare);
    await provisionTable(ddb, spare);
    await copyItems(client, tableName, spare);
    await deleteTable(ddb, tableName);
    await provisionTable(ddb, tableName);
  }
  await copyItems(client, spare, tableName);
  await deleteTable(ddb, spare);
}

/** The table's index names, or null when there is no such table. */
async function indexNames(ddb: DynamoDBClient, tableName: string): Promise<string[] | null> {
  try {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    return (Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName ?? '');
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return null;
    throw error;
  }
}

/** A local data directory's items fit in memory. */
async function copyItems(client: DynamoDBDocumentClient, from: string, to: string): Promise<void> {
  const items = (await scanAll(client, { TableName: from })).map(withIndexKeys);
  await batchWriteAll(client, to, items.map((Item) => ({ PutRequest: { Item } })));
}

/** A job item as jobToItem writes it now: the expiry index's day, and the unfinished index's key while not terminal. */
function withIndexKeys(item: Item): Item {
  if (item.entity !== 'job') return item;
  const { partitionKey, sortKey } = TABLE_SCHEMA.expiryIndex;
  const expiresAt = item[sortKey];
  return {
    ...item,
    ...(typeof expiresAt === 'string' ? { [partitionKey]: expiryDay(expiresAt) } : {}),
    ...(typeof item.status === 'string' && !isTerminal(item.status as Status) ? { [UNFINISHED_KEY]: UNFINISHED_VALUE } : {}),
  };
}

async function deleteTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  await ddb.send(new DeleteTableCommand({ TableName: tableName }));
  // dynalite deletes at once (deleteTableMs 0) but answers before it has.
  while ((await indexNames(ddb, tableName)) !== null) await new Promise((resolve) => setTimeout(resolve, 20));
}
