/**
 * UploadStore: the record POST /uploads writes and a `fileRef` source reads.
 * The record stays usable for UPLOAD_RECORD_RETENTION_SECONDS after its
 * presigned POST expires (see dynamo-items.ts); after that it counts as absent
 * even before DynamoDB's TTL (or never, on dynalite) removes it.
 *
 * The jobs that refer to an upload's file are a string set on an item of their
 * own beside the record (same partition, sort key REFS, no TTL): the record
 * expires on its schedule, the references last until their jobs are deleted.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock, UploadStore } from '../../domain/ports';
import { isExpired, itemToUpload, uploadItemKey, uploadReferencesKey, uploadToItem } from './dynamo-items';
import { isConditionalCheckFailed } from './dynamo-expressions';

export interface DynamoUploadStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  clock: Clock;
}

export function createDynamoUploadStore({ client, tableName, clock }: DynamoUploadStoreOptions): UploadStore {
  const sizeOf = (item: Record<string, unknown> | undefined): number => (item?.refs instanceof Set ? item.refs.size : 0);

  return {
    async putUpload(upload) {
      await client.send(new PutCommand({ TableName: tableName, Item: uploadToItem(upload) }));
    },

    async getUpload(accountId, uploadId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: uploadItemKey(uploadId), ConsistentRead: true }));
      if (!out.Item || isExpired(out.Item, clock.now())) return null;
      const upload = itemToUpload(out.Item);
      return upload.accountId === accountId ? upload : null;
    },

    async addReference(accountId, uploadId, jobId) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: uploadReferencesKey(uploadId),
          UpdateExpression: 'ADD refs :job SET accountId = :account, entity = :entity',
          // Upload ids are unique, but no code path may touch another account's references.
          ConditionExpression: 'attribute_not_exists(accountId) OR accountId = :account',
          ExpressionAttributeValues: { ':job': new Set([jobId]), ':account': accountId, ':entity': 'upload-references' },
        }),
      );
    },

    async removeReference(accountId, uploadId, jobId) {
      const out = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: uploadReferencesKey(uploadId),
          UpdateExpression: 'DELETE refs :job',
          ConditionExpression: 'accountId = :account',
          ExpressionAttributeValues: { ':job': new Set([jobId]), ':account': accountId },
          ReturnValues: 'ALL_NEW',
        }),
      ).catch((error: unknown) => {
        // No references item (never referred, or already cleaned up): nothing refers.
        if (isConditionalCheckFailed(error)) return { Attributes: undefined };
        throw error;
      });
      const left = sizeOf(out.Attributes);
      if (left === 0) {
        // The last reference went (DynamoDB drops an empty set): remove the item, unless a job
        // referred again meanwhile.
        await client
          .send(new DeleteCommand({ TableName: tableName, Key: uploadReferencesKey(uploadId), ConditionExpression: 'attribute_not_exists(refs)' }))
          .catch((error: unknown) => {
            if (!isConditionalCheckFailed(error)) throw error;
          });
      }
      return left;
    },

    async referenceCount(accountId, uploadId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: uploadReferencesKey(uploadId), ConsistentRead: true }));
      return out.Item?.accountId === accountId ? sizeOf(out.Item) : 0;
    },
  };
}
