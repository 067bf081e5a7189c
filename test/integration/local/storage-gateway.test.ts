import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Client } from '@aws-sdk/client-s3';
import { createS3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store';
import type { BlobStore, PresignedPost } from '../../../lambdas/domain/ports';
import { S3RVER_CREDENTIALS, startStandins, type Standins } from '../../../local/standins';
import { startStorageGateway, type StorageGateway } from '../../../local/storage-gateway';

const REGION = 'us-east-1';
const BUCKET = 'proofline-gateway-test';
/** The console's origin, as the local runtime passes it (another port than storage). */
const CONSOLE = 'http://127.0.0.1:3000';
const ELSEWHERE = 'https://attacker.example';

/** A browser-style upload: every field first, the file last in part `file`. */
async function postForm(post: PresignedPost, file: Uint8Array, overrides: Record<string, string | null> = {}, fileName = 'card.pdf', headers: Record<string, string> = {}) {
  const form = new FormData();
  const fields: Record<string, string | null> = { ...post.fields, ...overrides };
  for (const [k, v] of Object.entries(fields)) if (v !== null) form.append(k, v);
  form.append('file', new Blob([file], { type: 'application/pdf' }), fileName);
  const res = await fetch(post.url, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

const s3Code = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
function bytes(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * seed) & 0xff;
  return out;
}
/** Byte comparison without a per-element deep-equality walk (slow on megabytes). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('the storage gateway in front of s3rver', () => {
  let standins: Standins;
  let gateway: StorageGateway;
  let blobs: BlobStore;
  let client: S3Client;
  let n = 0;
  const freshKey = () => `acct/uploads/upload_${++n}`;

  beforeAll(async () => {
    standins = await startStandins({ region: REGION, tableName: 'proofline-gw', bucketName: BUCKET });
    gateway = await startStorageGateway({ upstream: standins.s3rver, upstreamToken: standins.s3rverToken, port: 0, corsOrigins: [CONSOLE], region: REGION, credentials: S3RVER_CREDENTIALS, log: () => {} });
    client = new S3Client({
      region: REGION,
      endpoint: gateway.url,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    blobs = createS3BlobStore({ client, bucket: BUCKET });
  });
  afterAll(async () => {
    client?.destroy();
    await gateway?.close();
    await standins?.stop();
  });

  it('stores a file that satisfies the POST policy and serves it through a presigned GET', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 4096, contentType: 'application/pdf', expiresInSeconds: 300 });
    expect(post.url.startsWith(gateway.url)).toBe(true);
    const file = bytes(3000);
    const res = await postForm(post, file);
    expect(res.status).toBe(204);
    expect(await blobs.head(key)).toEqual({ sizeBytes: 3000, contentType: 'application/pdf', etag: expect.any(String) });

    const download = await fetch(await blobs.presignGet(key, 60));
    expect(download.status).toBe(200);
    expect(sameBytes(new Uint8Array(await download.arrayBuffer()), file)).toBe(true);
  });

  it('streams a multi-megabyte upload through to storage intact', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 8 * 1024 * 1024, contentType: 'application/pdf', expiresInSeconds: 300 });
    const file = bytes(6 * 1024 * 1024, 13);
    expect((await postForm(post, file)).status).toBe(204);
    expect(sameBytes(await blobs.getBytes(key), file)).toBe(true);
  });

  it('refuses a file larger than the policy allows with EntityTooLarge and stores nothing', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(1001));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/xml');
    expect(s3Code(res.body)).toBe('EntityTooLarge');
    expect(await blobs.head(key)).toBeNull();
  });

  it('refuses a much larger file early, without storing it', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 1024, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(3 * 1024 * 1024));
    expect(s3Code(res.body)).toBe('EntityTooLarge');
    expect(await blobs.head(key)).toBeNull();
  });

  it('refuses an empty file with EntityTooSmall (the policy asks for at least one byte)', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, new Uint8Array(0));
    expect(res.status).toBe(400);
    expect(s3Code(res.body)).toBe('EntityTooSmall');
    expect(await blobs.head(key)).toBeNull();
  });

  it('refuses an upload to another key than the policy names', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(10), { key: 'other-account/uploads/upload_x' });
    expect(res.status).toBe(403);
    expect(s3Code(res.body)).toBe('AccessDenied');
    expect(res.body).toContain('Policy Condition failed');
    expect(await blobs.head('other-account/uploads/upload_x')).toBeNull();
    expect(await blobs.head(key)).toBeNull();
  });

  it('refuses another content type than the policy names', async () => {
    const post = await blobs.presignPost(freshKey(), { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(10), { 'Content-Type': 'text/html' });
    expect(res.status).toBe(403);
    expect(s3Code(res.body)).toBe('AccessDenied');
  });

  it('refuses a form with a field the policy does not mention', async () => {
    const post = await blobs.presignPost(freshKey(), { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(10), { acl: 'public-read' });
    expect(res.status).toBe(403);
    expect(res.body).toContain('Extra input fields: acl');
  });

  it('refuses a tampered policy: its signature no longer matches', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 10, contentType: 'application/pdf', expiresInSeconds: 300 });
    const policy = JSON.parse(Buffer.from(post.fields.Policy!, 'base64').toString('utf8'));
    policy.conditions = policy.conditions.map((c: unknown) => (Array.isArray(c) && c[0] === 'content-length-range' ? ['content-length-range', 1, 10_000_000] : c));
    const res = await postForm(post, bytes(100), { Policy: Buffer.from(JSON.stringify(policy)).toString('base64') });
    expect(res.status).toBe(403);
    expect(s3Code(res.body)).toBe('SignatureDoesNotMatch');
    expect(await blobs.head(key)).toBeNull();
  });

  it('refuses a form without a policy or signature', async () => {
    const post = await blobs.presignPost(freshKey(), { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 300 });
    const res = await postForm(post, bytes(10), { Policy: null, 'X-Amz-Signature': null });
    expect(res.status).toBe(403);
    expect(s3Code(res.body)).toBe('AccessDenied');
  });

  it('refuses a policy past its expiration', async () => {
    const key = freshKey();
    const post = await blobs.presignPost(key, { maxBytes: 1000, contentType: 'application/pdf', expiresInSeconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await postForm(post, bytes(10));
    expect(res.status).toBe(403);
    expect(res.body).toContain('Policy expired');
    expect(await blobs.head(key)).toBeNull();
  });

  it('passes the S3 client’s signed requests through unchanged', async () => {
    await blobs.putBytes('acct/jobs/j/t/source/a.pdf', bytes(50), 'application/pdf');
    expect(await blobs.readRange('acct/jobs/j/t/source/a.pdf', 0, 9)).toEqual(bytes(50).slice(0, 10));
    expect(await blobs.deletePrefix('acct/jobs/j/')).toBe(1);
  });

  it('refuses unsigned requests as S3 does for a private bucket', async () => {
    await blobs.putBytes('acct/private.pdf', bytes(5), 'application/pdf');
    const res = await fetch(`${gateway.url}/${BUCKET}/acct/private.pdf`);
    expect(res.status).toBe(403);
    expect(s3Code(await res.text())).toBe('AccessDenied');
  });

  describe('presigned URLs (s3rver does not verify Signature Version 4, so the gateway does)', () => {
    beforeAll(async () => {
      await blobs.putBytes('acct/signed.pdf', bytes(5), 'application/pdf');
      await blobs.putBytes('other/secret.pdf', bytes(9), 'application/pdf');
    });

    it('serves a presigned GET, with the download file name it was signed with', async () => {
      const res = await fetch(await blobs.presignGet('acct/signed.pdf', 60, 'Visitenkarte ä.pdf'));
      expect(res.status).toBe(200);
      expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes(5))).toBe(true);
    });

    it('refuses a forged signature', async () => {
      const url = new URL(await blobs.presignGet('acct/signed.pdf', 60));
      url.searchParams.set('X-Amz-Signature', '0'.repeat(64));
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(s3Code(await res.text())).toBe('SignatureDoesNotMatch');
    });

    it('refuses a presigned URL edited to point at another object', async () => {
      const url = new URL(await blobs.presignGet('acct/signed.pdf', 60));
      url.pathname = `/${BUCKET}/other/secret.pdf`;
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(s3Code(await res.text())).toBe('SignatureDoesNotMatch');
    });

    it('refuses a presigned URL whose lifetime was extended', async () => {
      const url = new URL(await blobs.presignGet('acct/signed.pdf', 60));
      url.searchParams.set('X-Amz-Expires', '604800');
      expect((await fetch(url)).status).toBe(403);
    });

    it('refuses a presigned URL past its expiry', async () => {
      const url = await blobs.presignGet('acct/signed.pdf', 1);
      await new Promise((r) => setTimeout(r, 2100));
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Request has expired');
    });
  });

  describe('CORS: the console, on another origin, uploads with progress (a preflight first) and reads the answer', () => {
    const preflight = (origin: string | null, method = 'POST') =>
      fetch(`${gateway.url}/${BUCKET}`, {
        method: 'OPTIONS',
        headers: { ...(origin ? { origin } : {}), 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
      });

    it('allows the console origin to POST, naming that origin (never *), for an hour', async () => {
      const res = await preflight(CONSOLE);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect(res.headers.get('access-control-allow-methods')?.split(', ')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(res.headers.get('access-control-max-age')).toBe('3600');
      expect(res.headers.get('vary')).toContain('Origin');
    });

    it('refuses the preflight of any other origin, as S3 does, without an allow header', async () => {
      for (const origin of [ELSEWHERE, 'http://127.0.0.1:3001', 'null']) {
        const res = await preflight(origin);
        expect(res.status, origin).toBe(403);
        expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
        expect(s3Code(await res.text())).toBe('AccessForbidden');
      }
    });

    it('refuses a method the rule does not allow, and an OPTIONS without an Origin', async () => {
      const del = await preflight(CONSOLE, 'DELETE');
      expect(del.status).toBe(403);
      expect(del.headers.get('access-control-allow-origin')).toBeNull();
      const bare = await preflight(null);
      expect(bare.status).toBe(400);
      expect(s3Code(await bare.text())).toBe('BadRequest');
    });

    it("lets the console read the upload's answer, a stored file or a refusal, and no other origin", async () => {
      const stored = await blobs.presignPost(freshKey(), { maxBytes: 100, contentType: 'application/pdf', expiresInSeconds: 300 });
      const ok = await postForm(stored, bytes(10), {}, 'card.pdf', { origin: CONSOLE });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect(ok.headers.get('access-control-expose-headers')).toContain('ETag');

      const tooLarge = await blobs.presignPost(freshKey(), { maxBytes: 100, contentType: 'application/pdf', expiresInSeconds: 300 });
      const refused = await postForm(tooLarge, bytes(101), {}, 'card.pdf', { origin: CONSOLE });
      expect(s3Code(refused.body)).toBe('EntityTooLarge');
      expect(refused.headers.get('access-control-allow-origin')).toBe(CONSOLE);

      const other = await blobs.presignPost(freshKey(), { maxBytes: 100, contentType: 'application/pdf', expiresInSeconds: 300 });
      const foreign = await postForm(other, bytes(10), {}, 'card.pdf', { origin: ELSEWHERE });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('lets the console read a presigned download (page images), and no other origin', async () => {
      await blobs.putBytes('acct/page-1.png', bytes(5), 'image/png');
      const url = await blobs.presignGet('acct/page-1.png', 60);
      expect((await fetch(url, { headers: { origin: CONSOLE } })).headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect((await fetch(url, { headers: { origin: ELSEWHERE } })).headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
