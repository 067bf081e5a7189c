/**
 * POST /uploads (docs/api.md §3): reserves an upload id and a presigned POST whose
 * policy storage itself enforces (exact key, content type, at most sizeBytes),
 * so files of any size bypass the API's body limit. The upload record ties the
 * id to the account: a fileRef works only for the account that created it.
 */
import { uploadKey } from '../blob-keys';
import { iso } from '../ids';
import type { Caller, UploadRecord } from '../model';
import type { BlobStore, Clock, IdSource, UploadStore } from '../ports';

export interface CreateUploadDeps {
  uploads: UploadStore;
  blobs: BlobStore;
  clock: Clock;
  ids: IdSource;
  uploadExpiresSeconds: number;
}

export interface CreatedUpload {
  fileRef: string;
  upload: { url: string; fields: Record<string, string>; method: 'POST' };
  maxBytes: number;
  expiresIn: number;
}

export async function createUpload(
  deps: CreateUploadDeps,
  caller: Caller,
  request: { mimeType: string; sizeBytes: number },
): Promise<CreatedUpload> {
  const id = deps.ids.next('upload');
  const key = uploadKey(caller.accountId, id);
  const now = deps.clock.now();
  const expiresIn = deps.uploadExpiresSeconds;
  const post = await deps.blobs.presignPost(key, {
    maxBytes: request.sizeBytes,
    contentType: request.mimeType,
    expiresInSeconds: expiresIn,
  });
  const record: UploadRecord = {
    id,
    accountId: caller.accountId,
    key,
    mimeType: request.mimeType,
    sizeBytes: request.sizeBytes,
    createdAt: iso(now),
    expiresAt: iso(new Date(now.getTime() + expiresIn * 1000)),
  };
  await deps.uploads.putUpload(record);
  return { fileRef: id, upload: { url: post.url, fields: post.fields, method: 'POST' }, maxBytes: request.sizeBytes, expiresIn };
}
