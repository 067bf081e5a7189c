/**
 * UploadStore: the record POST /uploads writes and a `fileRef` source reads.
 * The record stays usable for UPLOAD_RECORD_RETENTION_SECONDS after its
 * presigned POST expires (see dynamo-items.ts); after that it counts as absent
 * even before DynamoDB's TTL (or never, on dynalite) removes it.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock, UploadStore } from '../../domain/ports';
import { isExpired, itemToUpload, uploadItemKey, uploadToItem } from './dynamo-items';

export interface DynamoUploadStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  clock: Clock;
}

export function createDynamoUploadStore({ client, tableName, clock }: DynamoUploadStoreOptions): UploadStore {
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
  };
}
