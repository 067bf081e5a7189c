/**
 * IdempotencyStore: one item per (account, Idempotency-Key). A request claims
 * the key with a conditional Put; the record then holds the request's hash,
 * its state (in_progress | complete) and, once complete, the response to replay.
 *
 * - An expired record (expiresAt past) counts as absent: DynamoDB's TTL deletes
 *   late and dynalite never does.
 * - An in_progress record older than IDEMPOTENCY_ABANDONED_AFTER_MS belongs to a
 *   request that died (the longest API Lambda runs 30 s); the same request may
 *   claim it again. Another body under the same key stays a mismatch.
 * - Responses over INLINE_BODY_BYTES are stored gzip-compressed so a large sync
 *   response still fits in one item.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock, IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../domain/ports';
import { isConditionalCheckFailed } from './dynamo-expressions';
import { epochSeconds, idempotencyItemKey, isExpired, type Item } from './dynamo-items';

export const IDEMPOTENCY_ABANDONED_AFTER_MS = 60_000;
const INLINE_BODY_BYTES = 32 * 1024;
const MAX_STORED_RESPONSE_BYTES = 350 * 1024;
/** Claim races (a record expiring or abandoned under us) are retried this often. */
const CLAIM_ATTEMPTS = 3;

type EncodedResponse = { statusCode: number; headers: Record<string, string>; body?: string; bodyGzip?: Uint8Array };

export function encodeResponse(response: StoredResponse): EncodedResponse {
  const { statusCode, headers, body } = response;
  if (Buffer.byteLength(body, 'utf8') <= INLINE_BODY_BYTES) return { statusCode, headers, body };
  const bodyGzip = new Uint8Array(gzipSync(Buffer.from(body, 'utf8')));
  if (bodyGzip.byteLength > MAX_STORED_RESPONSE_BYTES) {
    throw new Error(`idempotent response is ${bodyGzip.byteLength} bytes compressed, over the ${MAX_STORED_RESPONSE_BYTES}-byte item budget`);
  }
  return { statusCode, headers, bodyGzip };
}

export function decodeResponse(encoded: EncodedResponse): StoredResponse {
  const body = encoded.bodyGzip ? gunzipSync(encoded.bodyGzip).toString('utf8') : (encoded.body ?? '');
  return { statusCode: Number(encoded.statusCode), headers: { ...encoded.headers }, body };
}

export interface DynamoIdempotencyStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  clock: Clock;
}

export function createDynamoIdempotencyStore({ client, tableName, clock }: DynamoIdempotencyStoreOptions): IdempotencyStore {
  async function tryClaim(accountId: string, key: string, requestHash: string, ttlSeconds: number, now: Date): Promise<boolean> {
    const nowMs = now.getTime();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...idempotencyItemKey(accountId, key),
            entity: 'idem',
            accountId,
            requestHash,
            state: 'in_progress',
            claimedAt: nowMs,
            expiresAt: epochSeconds(now) + Math.max(1, Math.ceil(ttlSeconds)),
          },
          ConditionExpression:
            'attribute_not_exists(#pk) OR #expiresAt <= :nowSeconds ' +
            'OR (#state = :inProgress AND #requestHash = :requestHash AND #claimedAt < :abandonedBefore)',
          ExpressionAttributeNames: {
            '#pk': 'pk',
            '#expiresAt': 'expiresAt',
            '#state': 'state',
            '#requestHash': 'requestHash',
            '#claimedAt': 'claimedAt',
          },
          ExpressionAttributeValues: {
            ':nowSeconds': Math.floor(nowMs / 1000),
            ':inProgress': 'in_progress',
            ':requestHash': requestHash,
            ':abandonedBefore': nowMs - IDEMPOTENCY_ABANDONED_AFTER_MS,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async function read(accountId: string, key: string): Promise<Item | undefined> {
    const out = await client.send(new GetCommand({ TableName: tableName, Key: idempotencyItemKey(accountId, key), ConsistentRead: true }));
    return out.Item;
  }

  return {
    async claim(accountId, key, requestHash, ttlSeconds): Promise<IdempotencyClaim> {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const now = clock.now();
        if (await tryClaim(accountId, key, requestHash, ttlSeconds, now)) return { state: 'claimed' };
        const item = await read(accountId, key);
        // Gone or expired since the Put: claim again.
        if (!item || isExpired(item, now)) continue;
        if (item.requestHash !== requestHash) return { state: 'mismatch' };
        if (item.state === 'complete' && item.response) return { state: 'replay', response: decodeResponse(item.response as EncodedResponse) };
        const abandoned = Number(item.claimedAt) < now.getTime() - IDEMPOTENCY_ABANDONED_AFTER_MS;
        if (!abandoned) return { state: 'in_progress' };
      }
      return { state: 'in_progress' };
    },

    async complete(accountId, key, response) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: idempotencyItemKey(accountId, key),
            UpdateExpression: 'SET #state = :complete, #response = :response',
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { '#state': 'state', '#response': 'response', '#pk': 'pk' },
            ExpressionAttributeValues: { ':complete': 'complete', ':response': encodeResponse(response) },
          }),
        );
      } catch (error) {
        // Released or expired meanwhile: there is no claim left to complete.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async release(accountId, key) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: idempotencyItemKey(accountId, key),
            // Never forget a completed response; only an unfinished claim is freed.
            ConditionExpression: '#state = :inProgress',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':inProgress': 'in_progress' },
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },
  };
}
