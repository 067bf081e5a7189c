/**
 * The requests the S3 blob store sends: streamed uploads, presigned URL and
 * POST policy contents, paged prefix deletes and error mapping.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PutObjectTaggingCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createS3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store';
import { createS3Client } from '../../../lambdas/adapters/aws/s3-client';
import { useStandInCredentials } from '../../support/s3rver';

// The stand-in client below resolves credentials from the environment.
useStandInCredentials();

const client = new S3Client({ region: 'eu-central-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const s3 = mockClient(client);
const blobs = createS3BlobStore({ client, bucket: 'files' });
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proofline-s3-unit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => s3.reset());

describe('uploading a file', () => {
  it('streams it from disk with its length and type instead of reading it into memory', async () => {
    const path = join(dir, 'card.pdf');
    await writeFile(path, '%PDF-1.7 twelve');
    s3.on(PutObjectCommand).resolves({});
    await blobs.putFile('a/jobs/j/t/source/card.pdf', path, 'application/pdf');
    const input = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ Bucket: 'files', Key: 'a/jobs/j/t/source/card.pdf', ContentType: 'application/pdf', ContentLength: 15 });
    expect(input.Body).toBeInstanceOf(ReadStream);
    (input.Body as ReadStream).destroy();
  });
});

describe('reading metadata', () => {
  it('answers null for a missing object and rethrows other failures', async () => {
    s3.on(HeadObjectCommand)
      .rejectsOnce(new NotFound({ message: 'not found', $metadata: { httpStatusCode: 404 } }))
      .rejectsOnce(new S3ServiceException({ name: 'AccessDenied', $fault: 'client', message: 'denied', $metadata: { httpStatusCode: 403 } }));
    expect(await blobs.head('a/missing')).toBeNull();
    await expect(blobs.head('a/forbidden')).rejects.toThrow('denied');
  });
});

describe('deleting a prefix', () => {
  it('lists pages of 1000 from the last key seen and deletes each page in one request', async () => {
    const keys = Array.from({ length: 2005 }, (_, i) => `a/jobs/j/${String(i).padStart(5, '0')}`);
    s3.on(ListObjectsCommand)
      .resolvesOnce({ Contents: keys.slice(0, 1000).map((Key) => ({ Key })), IsTruncated: true })
      .resolvesOnce({ Contents: keys.slice(1000, 2000).map((Key) => ({ Key })), IsTruncated: true })
      .resolvesOnce({ Contents: keys.slice(2000).map((Key) => ({ Key })), IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({});
    expect(await blobs.deletePrefix('a/jobs/j/')).toBe(2005);
    const lists = s3.commandCalls(ListObjectsCommand).map((c) => c.args[0].input);
    expect(lists.map((l) => [l.Prefix, l.MaxKeys, l.Marker])).toEqual([
      ['a/jobs/j/', 1000, undefined],
      ['a/jobs/j/', 1000, keys[999]],
      ['a/jobs/j/', 1000, keys[1999]],
    ]);
    const deletes = s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete!);
    expect(deletes.map((d) => d.Objects!.length)).toEqual([1000, 1000, 5]);
    expect(deletes[2]!.Objects).toEqual(keys.slice(2000).map((Key) => ({ Key })));
    expect(deletes.every((d) => d.Quiet === true)).toBe(true);
  });

  it('fails loudly when storage reports keys it could not delete', async () => {
    s3.on(ListObjectsCommand).resolves({ Contents: [{ Key: 'a/x' }], IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'a/x', Code: 'AccessDenied', Message: 'no' }] });
    await expect(blobs.deletePrefix('a/')).rejects.toThrow(/1 objects not deleted.*a\/x: AccessDenied/);
  });
});

describe('presigned URLs', () => {
  it('signs a GET with the expiry and an attachment disposition carrying the file name', async () => {
    const url = new URL(await blobs.presignGet('a/jobs/j/t/s/fixed.pdf', 3600, 'Größe "A4".pdf'));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="Gro_e _A4_.pdf"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%22A4%22.pdf`,
    );
  });

  it('builds a POST policy with the exact key, the content type and 1..maxBytes, expiring when asked', async () => {
    const before = Date.now();
    const post = await blobs.presignPost('acct/uploads/upload_1', { maxBytes: 524288000, contentType: 'image/png', expiresInSeconds: 3600 });
    expect(post.url).toBe('https://files.s3.eu-central-1.amazonaws.com/');
    expect(post.fields).toMatchObject({ key: 'acct/uploads/upload_1', 'Content-Type': 'image/png', bucket: 'files' });
    expect(post.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    const policy = JSON.parse(Buffer.from(post.fields.Policy!, 'base64').toString()) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 524288000],
        { key: 'acct/uploads/upload_1' },
        ['eq', '$Content-Type', 'image/png'],
        { bucket: 'files' },
      ]),
    );
    // Each condition once, even though the SDK adds the key itself as well.
    expect(policy.conditions.filter((c) => JSON.stringify(c) === JSON.stringify({ key: 'acct/uploads/upload_1' }))).toHaveLength(1);
    const expiresIn = Date.parse(policy.expiration) - before;
    expect(expiresIn).toBeGreaterThan(3598_000);
    expect(expiresIn).toBeLessThanOrEqual(3601_000);
  });

  it('tags the uploaded object as an upload, so the bucket lifecycle rule can expire it', async () => {
    const post = await blobs.presignPost('acct/uploads/upload_2', { maxBytes: 10, contentType: 'application/pdf', expiresInSeconds: 60 });
    const tagging = '<Tagging><TagSet><Tag><Key>proofline-object</Key><Value>upload</Value></Tag></TagSet></Tagging>';
    expect(post.fields.tagging).toBe(tagging);
    const policy = JSON.parse(Buffer.from(post.fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual({ tagging });
  });
});

describe('an upload held by a job', () => {
  it('loses the upload tag (an empty tag set), and gets it back when released, so the lifecycle rule expires it only then', async () => {
    s3.on(PutObjectTaggingCommand).resolves({});
    await blobs.setUploadExpiry('acct/uploads/upload_1', false);
    await blobs.setUploadExpiry('acct/uploads/upload_1', true);
    const [hold, release] = s3.commandCalls(PutObjectTaggingCommand).map((c) => c.args[0].input);
    expect(hold).toMatchObject({ Bucket: 'files', Key: 'acct/uploads/upload_1', Tagging: { TagSet: [] } });
    expect(release).toMatchObject({ Key: 'acct/uploads/upload_1', Tagging: { TagSet: [{ Key: 'proofline-object', Value: 'upload' }] } });
  });

  it('is no error once the object is gone', async () => {
    s3.on(PutObjectTaggingCommand).rejects(Object.assign(new Error('gone'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } }));
    await expect(blobs.setUploadExpiry('acct/uploads/upload_9', true)).resolves.toBeUndefined();
  });
});

describe('the S3 client', () => {
  it('uses path-style URLs and the stand-in endpoint when configured, checksums only when required', async () => {
    const local = createS3Client({ region: 'us-east-1', endpoints: { s3: 'http://127.0.0.1:4568' }, s3ForcePathStyle: true });
    expect(local.config.forcePathStyle).toBe(true);
    expect(await local.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await local.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    const post = await createS3BlobStore({ client: local, bucket: 'files' }).presignGet('k', 60);
    expect(post.startsWith('http://127.0.0.1:4568/files/k?')).toBe(true);
    local.destroy();
  });
});
