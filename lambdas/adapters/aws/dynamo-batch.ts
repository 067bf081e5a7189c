/**
 * Batch writes and paginated queries and scans, the loops every store needs.
 * BatchWriteItem takes at most 25 requests and may hand some back as
 * UnprocessedItems under throttling; those are retried with backoff until
 * written, so a caller never mistakes a partial write for a complete one.
 */
import {
  BatchWriteCommand,
  QueryCommand,
  ScanCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Item, ItemKey } from './dynamo-items';

export const BATCH_WRITE_MAX = 25;
const MAX_UNPROCESSED_ROUNDS = 10;

export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: ItemKey } };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Full-jitter exponential backoff: 50 ms, 100 ms, … capped at 2 s. */
export function backoffMs(round: number): number {
  return Math.random() * Math.min(2000, 50 * 2 ** round);
}

export async function batchWriteAll(client: DynamoDBDocumentClient, tableName: string, requests: WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_MAX) {
    let pending = requests.slice(i, i + BATCH_WRITE_MAX);
    for (let round = 0; pending.length > 0; round++) {
      if (round > MAX_UNPROCESSED_ROUNDS) {
        throw new Error(`BatchWrite to ${tableName}: ${pending.length} items still unprocessed after ${MAX_UNPROCESSED_ROUNDS} retries`);
      }
      if (round > 0) await sleep(backoffMs(round));
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    }
  }
}

type StartKey = { ExclusiveStartKey?: Record<string, unknown> };
type Page = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };

/** Every item of every page `read` returns, each page read from where the last one ended. */
async function allPages(read: (startKey: StartKey) => Promise<Page>): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await read(startKey ? { ExclusiveStartKey: startKey } : {});
    items.push(...((out.Items ?? []) as Item[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item the query matches, following LastEvaluatedKey. */
export function queryAll(client: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  return allPages((startKey) => client.send(new QueryCommand({ ...input, ...startKey })));
}

/** Every item the scan reads, following LastEvaluatedKey. */
export function scanAll(client: DynamoDBDocumentClient, input: ScanCommandInput): Promise<Item[]> {
  return allPages((startKey) => client.send(new ScanCommand({ ...input, ...startKey })));
}
