/**
 * Batch writes and paginated queries, the two loops every store needs.
 * BatchWriteItem takes at most 25 requests and may hand some back as
 * UnprocessedItems under throttling; those are retried with backoff until
 * written, so a caller never mistakes a partial write for a complete one.
 */
import { BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
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

/** Every item the query matches, following LastEvaluatedKey. */
export async function queryAll(client: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
    items.push(...((out.Items ?? []) as Item[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}
