/**
 * KeyStore: API keys by the hash of their secret (the authoriser's one read),
 * listed and revoked by key id through the `KEYS` partition of gsi1, and the
 * accounts that own them.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AccountRecord, ApiKeyRecord } from '../../domain/model';
import type { KeyStore } from '../../domain/ports';
import { TABLE_SCHEMA } from './table-schema';
import { queryAll } from './dynamo-batch';
import { conditionHeld, isConditionalCheckFailed } from './dynamo-expressions';
import {
  KEYS_GSI_PK,
  accountItemKey,
  accountToItem,
  apiKeyItemKey,
  apiKeyToItem,
  itemToAccount,
  itemToApiKey,
} from './dynamo-items';

export interface DynamoKeyStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export function createDynamoKeyStore({ client, tableName }: DynamoKeyStoreOptions): KeyStore {
  /** Keys from the index, ascending by id (creation order); optionally one key id only. */
  function queryKeys(keyId?: string, accountId?: string): Promise<ApiKeyRecord[]> {
    const values: Record<string, unknown> = { ':pk': KEYS_GSI_PK };
    let condition = '#gpk = :pk';
    const names: Record<string, string> = { '#gpk': TABLE_SCHEMA.gsi1.partitionKey };
    if (keyId !== undefined) {
      condition += ' AND #gsk = :id';
      names['#gsk'] = TABLE_SCHEMA.gsi1.sortKey;
      values[':id'] = keyId;
    }
    let filter: string | undefined;
    if (accountId !== undefined) {
      filter = '#account = :account';
      names['#account'] = 'accountId';
      values[':account'] = accountId;
    }
    return queryAll(client, {
      TableName: tableName,
      IndexName: TABLE_SCHEMA.gsi1.name,
      KeyConditionExpression: condition,
      ...(filter ? { FilterExpression: filter } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }).then((items) => items.map(itemToApiKey));
  }

  /** One UpdateItem of an item that must exist: false when it does not. */
  function updateExisting(key: Record<string, string>, update: string, names: Record<string, string>, values?: Record<string, unknown>): Promise<boolean> {
    return conditionHeld(
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(#pk)',
          ExpressionAttributeNames: { ...names, '#pk': 'pk' },
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      ),
    );
  }

  return {
    async putKey(key) {
      await client.send(new PutCommand({ TableName: tableName, Item: apiKeyToItem(key) }));
    },

    async findByHash(hash) {
      // Consistent, so a key works the moment the keys tool has printed it.
      const out = await client.send(new GetCommand({ TableName: tableName, Key: apiKeyItemKey(hash), ConsistentRead: true }));
      return out.Item ? itemToApiKey(out.Item) : null;
    },

    listKeys(accountId) {
      return queryKeys(undefined, accountId);
    },

    async revokeKey(keyId, at) {
      const [key] = await queryKeys(keyId);
      if (!key) return false;
      // Revoking twice keeps the first revocation time.
      if (key.revokedAt) return true;
      return updateExisting(apiKeyItemKey(key.hash), 'SET #a = :a', { '#a': 'revokedAt' }, { ':a': at });
    },

    async getAccount(accountId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: accountItemKey(accountId), ConsistentRead: true }));
      return out.Item ? itemToAccount(out.Item) : null;
    },

    setAccountRetention(accountId, days) {
      // REMOVE rather than storing null: an account without the attribute uses the deployment's period.
      if (days === null) return updateExisting(accountItemKey(accountId), 'REMOVE #a', { '#a': 'retentionDays' });
      return updateExisting(accountItemKey(accountId), 'SET #a = :a', { '#a': 'retentionDays' }, { ':a': days });
    },

    setAccountWebhookSecret(accountId, webhookSecret) {
      return updateExisting(accountItemKey(accountId), 'SET #a = :a', { '#a': 'webhookSecret' }, { ':a': webhookSecret });
    },

    async ensureAccount(account: AccountRecord) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: accountToItem(account),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': 'pk' },
          }),
        );
        return account;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
      // Someone created it first (another key of the same account): theirs stands.
      const out = await client.send(new GetCommand({ TableName: tableName, Key: accountItemKey(account.id), ConsistentRead: true }));
      if (!out.Item) throw new Error(`account ${account.id} exists but could not be read`);
      return itemToAccount(out.Item);
    },
  };
}
