/**
 * ProfileStore: an account's own preflight profiles, one item per (account,
 * profile id) in the account's partition (dynamo-items.ts), holding the current
 * version. Every write is a single conditional PutItem or DeleteItem (dynalite
 * has no TransactWriteItems): a create only where no item is, a replace only
 * over the version before it, so two concurrent writers never both succeed and
 * no update is lost unnoticed.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ProfileStore } from '../../domain/ports';
import { queryAll } from './dynamo-batch';
import { conditionHeld } from './dynamo-expressions';
import { accountItemKey, itemToProfile, PROFILE_SK_PREFIX, profileItemKey, profileToItem } from './dynamo-items';

export interface DynamoProfileStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export function createDynamoProfileStore({ client, tableName }: DynamoProfileStoreOptions): ProfileStore {
  const accountProfiles = (accountId: string) => ({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': accountItemKey(accountId).pk, ':prefix': PROFILE_SK_PREFIX },
    ConsistentRead: true,
  });

  return {
    createProfile(profile) {
      return conditionHeld(
        client.send(new PutCommand({ TableName: tableName, Item: profileToItem(profile), ConditionExpression: 'attribute_not_exists(pk)' })),
      );
    },

    async getProfile(accountId, profileId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: profileItemKey(accountId, profileId), ConsistentRead: true }));
      return out.Item ? itemToProfile(out.Item) : null;
    },

    async listProfiles(accountId) {
      // Sort keys order the profiles by id.
      return (await queryAll(client, accountProfiles(accountId))).map(itemToProfile);
    },

    async countProfiles(accountId) {
      let count = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await client.send(new QueryCommand({ ...accountProfiles(accountId), Select: 'COUNT', ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
        count += out.Count ?? 0;
        startKey = out.LastEvaluatedKey;
      } while (startKey);
      return count;
    },

    replaceProfile(profile) {
      return conditionHeld(
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: profileToItem(profile),
            ConditionExpression: 'attribute_exists(pk) AND #version = :previous',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':previous': profile.version - 1 },
          }),
        ),
      );
    },

    deleteProfile(accountId, profileId) {
      return conditionHeld(
        client.send(new DeleteCommand({ TableName: tableName, Key: profileItemKey(accountId, profileId), ConditionExpression: 'attribute_exists(pk)' })),
      );
    },
  };
}
