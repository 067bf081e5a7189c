/**
 * The S3 blob store against a real s3rver: streaming round trips, ranges,
 * upload tags, prefix deletes and presigned URLs fetched over loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { GetObjectTaggingCommand, type S3Client } from '@aws-sdk/client-s3';
import { startS3rver, useStandInCredentials } from '../../support/s3rver';
import type { StandIn } from '../../support/dynalite';
import { createS3Client } from '../../../lambdas/adapters/aws/s3-client';
import { createS3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store';
import { provisionBucket } from '../../../lambdas/adapters/aws/provision';
import type { BlobStore } from '../../../lambdas/domain/ports';

const BUCKET = 'blob-store-test';
let s3rver: StandIn;
let client: S3Client;
let blobs: BlobStore;
let dir: string;

beforeAll(async () => {
  useStandInCredentials();
  s3rver = await startS3rver();
  client = createS3Client({ region: 'us-east-1', endpoints: { s3: s3rver.endpoint }, s3ForcePathStyle: true });
  await provisionBucket(client, BUCKET);
  await provisionBucket(client, BUCKET); // idempotent
  blobs = createS3BlobStore({ client, bucket: BUCKET });
  dir = await mkdtemp(join(tmpdir(), 'proofline-blob-test-'));
});

afterAll(async () => {
  client?.destroy();
  await s3rver?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('storing and reading objects', () => {
  it('stores bytes and reads them back with their size and type', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 hello');
    await blobs.putBytes('acct/jobs/j1/t1/source/a.pdf', bytes, 'application/pdf');
    expect(await blobs.getBytes('acct/jobs/j1/t1/source/a.pdf')).toEqual(bytes);
    const head = await blobs.head('acct/jobs/j1/t1/source/a.pdf');
    expect(head).toEqual({ sizeBytes: bytes.byteLength, contentType: 'application/pdf', etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
    // Written again, the object has another ETag (how a job notices a replaced upload).
    await blobs.putBytes('acct/jobs/j1/t1/source/b.pdf', bytes, 'application/pdf');
    await blobs.putBytes('acct/jobs/j1/t1/source/b.pdf', new TextEncoder().encode('something else'), 'application/pdf');
    expect((await blobs.head('acct/jobs/j1/t1/source/b.pdf'))?.etag).not.toBe(head?.etag);
    const chunks: Buffer[] = [];
    for await (const c of await blobs.getStream('acct/jobs/j1/t1/source/a.pdf')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.7 hello');
  });

  it('answers null to head for a missing object', async () => {
    expect(await blobs.head('acct/nothing-here')).toBeNull();
  });

  it('round-trips a 20 MB file from disk to disk by streaming', async () => {
    const source = join(dir, 'big.bin');
    const out = createWriteStream(source);
    for (let i = 0; i < 20; i++) {
      if (!out.write(randomBytes(1024 * 1024))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    await blobs.putFile('acct/jobs/j2/t1/source/big.bin', source, 'application/octet-stream');
    expect((await blobs.head('acct/jobs/j2/t1/source/big.bin'))?.sizeBytes).toBe(20 * 1024 * 1024);
    const target = join(dir, 'big-copy.bin');
    const size = await blobs.downloadToFile('acct/jobs/j2/t1/source/big.bin', target);
    expect(size).toBe(20 * 1024 * 1024);
    expect((await stat(target)).size).toBe(size);
    expect(await sha256File(target)).toBe(await sha256File(source));
  });

  it('reads byte ranges, shorter at the end and empty past it', async () => {
    await blobs.putBytes('acct/range', new TextEncoder().encode('0123456789'), 'text/plain');
    expect(new TextDecoder().decode(await blobs.readRange('acct/range', 2, 5))).toBe('2345');
    expect(new TextDecoder().decode(await blobs.readRange('acct/range', 7, 100))).toBe('789');
    expect(await blobs.readRange('acct/range', 50, 60)).toEqual(new Uint8Array(0));
  });

  it('takes the upload tag off an object and puts it back (PutObjectTagging on the stand-in)', async () => {
    const key = 'acct/uploads/upload_tagged';
    await blobs.putBytes(key, new TextEncoder().encode('held'), 'application/pdf');
    const tags = async () => (await client.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: key }))).TagSet ?? [];
    await blobs.setUploadExpiry(key, true);
    expect(await tags()).toEqual([{ Key: 'proofline-object', Value: 'upload' }]);
    await blobs.setUploadExpiry(key, false);
    expect(await tags()).toEqual([]);
    await blobs.setUploadExpiry('acct/uploads/never-there', true);
  });
});

describe('deleting a prefix', () => {
  const one = new Uint8Array([1]);
  async function putAll(keys: string[]) {
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => blobs.putBytes(k, one, 'image/png')));
  }

  it('deletes across several list pages and delete batches, and nothing beside the prefix', async () => {
    // A page of 7 stands in for S3's 1000 so the paging runs against s3rver
    // in milliseconds. Flat keys in a directory that keeps a sibling: s3rver's
    // multi-object delete is safe as long as it never empties a directory.
    const paged = createS3BlobStore({ client, bucket: BUCKET, pageSize: 7 });
    const keys = Array.from({ length: 30 }, (_, i) => `acct/flat/j10-out-${String(i).padStart(4, '0')}.png`);
    await putAll(keys);
    await blobs.putBytes('acct/flat/j1-keep.pdf', one, 'application/pdf');
    await blobs.putBytes('acct/flat/j100-keep.pdf', one, 'application/pdf');
    expect(await paged.deletePrefix('acct/flat/j10-')).toBe(30);
    expect(await Promise.all(keys.map((k) => blobs.head(k)))).toEqual(keys.map(() => null));
    expect(await blobs.head('acct/flat/j1-keep.pdf')).not.toBeNull();
    expect(await blobs.head('acct/flat/j100-keep.pdf')).not.toBeNull();
    expect(await paged.deletePrefix('acct/flat/j10-')).toBe(0);
  });

  it('deletes a job\'s nested tree key by key when batch deletes are off (the stand-in setting)', async () => {
    const single = createS3BlobStore({ client, bucket: BUCKET, batchDeletes: false });
    const keys = Array.from({ length: 24 }, (_, i) => `acct/jobs/j20/task_${i % 4}/step_${i % 3}/page-${i}.png`);
    await putAll(keys);
    await blobs.putBytes('acct/jobs/j2/keep.pdf', one, 'application/pdf');
    await blobs.putBytes('acct/jobs/j200/keep.pdf', one, 'application/pdf');
    expect(await single.deletePrefix('acct/jobs/j20/')).toBe(24);
    expect(await Promise.all(keys.map((k) => blobs.head(k)))).toEqual(keys.map(() => null));
    expect(await blobs.head('acct/jobs/j2/keep.pdf')).not.toBeNull();
    expect(await blobs.head('acct/jobs/j200/keep.pdf')).not.toBeNull();
  });

  it('refuses an empty prefix', async () => {
    await expect(blobs.deletePrefix('')).rejects.toThrow(/non-empty/);
  });
});

describe('presigned URLs', () => {
  it('gives a GET URL that plain fetch can download, with the original file name as attachment', async () => {
    await blobs.putBytes('acct/jobs/j4/t1/fixed/file.pdf', new TextEncoder().encode('%PDF fixed'), 'application/pdf');
    const url = await blobs.presignGet('acct/jobs/j4/t1/fixed/file.pdf', 3600, 'Prospekt "Sommer" – Größe A4.pdf');
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(url).toContain('X-Amz-Expires=3600');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('%PDF fixed');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="Prospekt _Sommer_ _ Gro_e A4.pdf"; /);
    expect(disposition).toContain("filename*=UTF-8''Prospekt%20%22Sommer%22%20%E2%80%93%20Gr%C3%B6%C3%9Fe%20A4.pdf");
  });

  it('gives a POST policy with the exact key, the content type and the size range', async () => {
    const key = 'acct/uploads/upload_01j0000000000000000000000a';
    const post = await blobs.presignPost(key, { maxBytes: 5000, contentType: 'application/pdf', expiresInSeconds: 900 });
    expect(post.url).toBe(`${s3rver.endpoint}/${BUCKET}`);
    expect(post.fields).toMatchObject({ key, 'Content-Type': 'application/pdf', bucket: BUCKET });
    const policy = JSON.parse(Buffer.from(post.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([['content-length-range', 1, 5000], { key }, ['eq', '$Content-Type', 'application/pdf'], { bucket: BUCKET }]),
    );
    const lifetime = Date.parse(policy.expiration) - Date.now();
    expect(lifetime).toBeGreaterThan(880_000);
    expect(lifetime).toBeLessThanOrEqual(900_000);

    // s3rver accepts the form (it does not enforce the policy; the local runtime does).
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', new Blob([new TextEncoder().encode('%PDF uploaded')], { type: 'application/pdf' }), 'card.pdf');
    const res = await fetch(post.url, { method: 'POST', body: form });
    expect(res.status).toBeLessThan(300);
    expect(new TextDecoder().decode(await blobs.getBytes(key))).toBe('%PDF uploaded');
  });
});
