/**
 * BlobStore over one S3 bucket (s3rver locally). Files move between S3 and
 * /tmp as streams: a 500 MiB source never sits in a Lambda's memory.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore } from '../../domain/ports';
import { UPLOAD_OBJECT_TAG } from '../../domain/blob-keys';
import { attachmentDisposition } from './content-disposition';

/** S3's POST `tagging` field: the XML tag set applied to the uploaded object. */
const UPLOAD_TAGGING_XML = `<Tagging><TagSet><Tag><Key>${UPLOAD_OBJECT_TAG.key}</Key><Value>${UPLOAD_OBJECT_TAG.value}</Value></Tag></TagSet></Tagging>`;

/** DeleteObjects takes at most this many keys. */
export const DELETE_OBJECTS_MAX = 1000;

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /**
   * Delete a prefix with DeleteObjects, up to 1000 keys a request (default).
   * false deletes one key a request, in order: s3rver handles a multi-object
   * delete concurrently and its directory clean-up then fails with an internal
   * error when two deleted keys share a directory, so the local runtime uses
   * single deletes.
   */
  batchDeletes?: boolean;
  /** Keys listed, and deleted, per request: S3's maximum of 1000 unless a test needs small pages. */
  pageSize?: number;
}

type S3Error = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };

const isNotFound = (error: unknown): boolean => {
  const e = error as S3Error;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};
const isInvalidRange = (error: unknown): boolean => {
  const e = error as S3Error;
  return e?.name === 'InvalidRange' || e?.$metadata?.httpStatusCode === 416;
};

export function createS3BlobStore({ client, bucket, batchDeletes = true, pageSize = DELETE_OBJECTS_MAX }: S3BlobStoreOptions): BlobStore {
  const page = Math.max(1, Math.min(DELETE_OBJECTS_MAX, Math.trunc(pageSize)));
  async function getBody(key: string, range?: string): Promise<Readable> {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }));
    if (!out.Body) throw new Error(`s3://${bucket}/${key}: empty response body`);
    return out.Body as Readable;
  }

  async function toBytes(body: Readable): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    return new Uint8Array(Buffer.concat(chunks));
  }

  async function deleteBatch(prefix: string, keys: string[]): Promise<void> {
    const out = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
    if (out.Errors && out.Errors.length > 0) {
      const first = out.Errors[0];
      throw new Error(`deletePrefix ${prefix}: ${out.Errors.length} objects not deleted (first: ${first?.Key}: ${first?.Code} ${first?.Message})`);
    }
  }

  return {
    bucket,

    async putBytes(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }));
    },

    async putFile(key, path, contentType) {
      // ContentLength lets the SDK stream the file as the request body instead
      // of buffering it to learn its length.
      const { size } = await stat(path);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(path), ContentType: contentType, ContentLength: size }),
      );
    },

    async downloadToFile(key, path) {
      await pipeline(await getBody(key), createWriteStream(path));
      return (await stat(path)).size;
    },

    getStream: (key) => getBody(key),

    async getBytes(key) {
      return toBytes(await getBody(key));
    },

    async readRange(key, start, end) {
      if (end < start || start < 0) return new Uint8Array(0);
      try {
        return await toBytes(await getBody(key, `bytes=${start}-${end}`));
      } catch (error) {
        // Asking past the end of the object is not an error for a reader of bytes.
        if (isInvalidRange(error)) return new Uint8Array(0);
        throw error;
      }
    },

    async head(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { sizeBytes: Number(out.ContentLength ?? 0), contentType: out.ContentType ?? null, etag: out.ETag ?? null };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async setUploadExpiry(key, expiring) {
      // PutObjectTagging replaces the whole tag set: an upload carries no other tag. (An empty set
      // rather than DeleteObjectTagging, which s3rver does not implement.)
      const TagSet = expiring ? [{ Key: UPLOAD_OBJECT_TAG.key, Value: UPLOAD_OBJECT_TAG.value }] : [];
      try {
        await client.send(new PutObjectTaggingCommand({ Bucket: bucket, Key: key, Tagging: { TagSet } }));
      } catch (error) {
        // Already gone (expired): there is nothing to keep or expire.
        if (!isNotFound(error)) throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      // An empty prefix would empty the bucket of every account.
      if (prefix === '') throw new Error('deletePrefix needs a non-empty prefix');
      let deleted = 0;
      let marker: string | undefined;
      for (;;) {
        // ListObjects (v1) pages by the last key seen. ListObjectsV2's
        // continuation token would do as well on S3, but s3rver encrypts it with
        // DES, which OpenSSL 3 (Node 18+) refuses: every truncated V2 listing
        // fails there with an internal error.
        const listing = await client.send(
          new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: page, ...(marker ? { Marker: marker } : {}) }),
        );
        const keys = (listing.Contents ?? []).map((o) => o.Key).filter((k): k is string => typeof k === 'string');
        if (batchDeletes) {
          for (let i = 0; i < keys.length; i += page) await deleteBatch(prefix, keys.slice(i, i + page));
        } else {
          for (const key of keys) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        }
        deleted += keys.length;
        const last = keys.at(-1);
        if (!listing.IsTruncated || last === undefined) return deleted;
        marker = last;
      }
    },

    presignGet(key, expiresInSeconds, downloadFileName) {
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(downloadFileName ? { ResponseContentDisposition: attachmentDisposition(downloadFileName) } : {}),
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    async presignPost(key, { maxBytes, contentType, expiresInSeconds }) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket: bucket,
        Key: key,
        // The tag marks the object as an upload, which the bucket's lifecycle
        // rule expires (upload keys share no prefix to expire by).
        Conditions: [['content-length-range', 1, maxBytes], { key }, ['eq', '$Content-Type', contentType], { tagging: UPLOAD_TAGGING_XML }],
        Fields: { 'Content-Type': contentType, tagging: UPLOAD_TAGGING_XML },
        Expires: expiresInSeconds,
      });
      return { url, fields };
    },
  };
}
