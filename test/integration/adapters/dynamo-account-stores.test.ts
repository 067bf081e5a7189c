/**
 * The key, upload and idempotency stores against a real dynalite, including
 * the expiry rules dynalite cannot enforce itself (it has no TTL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite, type StandIn } from '../../support/dynalite';
import { useStandInCredentials } from '../../support/s3rver';
import { createDynamoDocumentClient } from '../../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../../lambdas/adapters/aws/provision';
import { createDynamoKeyStore } from '../../../lambdas/adapters/aws/dynamo-key-store';
import { createDynamoUploadStore } from '../../../lambdas/adapters/aws/dynamo-upload-store';
import { createDynamoIdempotencyStore, IDEMPOTENCY_ABANDONED_AFTER_MS } from '../../../lambdas/adapters/aws/dynamo-idempotency-store';
import { UPLOAD_RECORD_RETENTION_SECONDS } from '../../../lambdas/adapters/aws/dynamo-items';
import { ulidIdSource } from '../../../lambdas/domain/ids';
import type { ApiKeyRecord, UploadRecord } from '../../../lambdas/domain/model';
import { steppingClock } from './job-fixtures';

const TABLE = 'accounts-test';
let dynalite: StandIn;
let client: DynamoDBDocumentClient;
const clock = steppingClock(Date.parse('2026-07-29T10:00:00.000Z'));
const ids = ulidIdSource(clock);

beforeAll(async () => {
  useStandInCredentials();
  dynalite = await startDynalite();
  client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: dynalite.endpoint } });
  await provisionTable(client, TABLE);
  // Provisioning twice is fine (the local runtime does it at every start).
  await provisionTable(client, TABLE);
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

function apiKey(accountId: string, hash: string): ApiKeyRecord {
  return { id: ids.next('key'), accountId, role: 'standard', hash, prefix: 'sk_test_Ab', createdAt: clock.now().toISOString(), revokedAt: null };
}

describe('the key store', () => {
  it('finds a key by the hash of its secret, and nothing for an unknown hash', async () => {
    const keys = createDynamoKeyStore({ client, tableName: TABLE });
    const key = apiKey('acct-k1', 'a'.repeat(64));
    await keys.putKey(key);
    expect(await keys.findByHash(key.hash)).toEqual(key);
    expect(await keys.findByHash('b'.repeat(64))).toBeNull();
  });

  it('lists keys by id, all accounts or one, and revokes by id keeping the first revocation time', async () => {
    const keys = createDynamoKeyStore({ client, tableName: TABLE });
    const k1 = apiKey('acct-k2', '1'.repeat(64));
    const k2 = apiKey('acct-k3', '2'.repeat(64));
    const k3 = apiKey('acct-k2', '3'.repeat(64));
    for (const k of [k3, k1, k2]) await keys.putKey(k);
    expect((await keys.listKeys('acct-k2')).map((k) => k.id)).toEqual([k1.id, k3.id]);
    const all = (await keys.listKeys()).map((k) => k.id);
    expect(all).toEqual(expect.arrayContaining([k1.id, k2.id, k3.id]));
    expect(all).toEqual([...all].sort());

    expect(await keys.revokeKey(k1.id, '2026-07-29T12:00:00.000Z')).toBe(true);
    expect(await keys.revokeKey(k1.id, '2026-07-29T13:00:00.000Z')).toBe(true);
    expect((await keys.findByHash(k1.hash))!.revokedAt).toBe('2026-07-29T12:00:00.000Z');
    expect((await keys.findByHash(k3.hash))!.revokedAt).toBeNull();
    expect(await keys.revokeKey('key_01j00000000000000000000000', '2026-07-29T12:00:00.000Z')).toBe(false);
  });

  it('creates an account once and returns the stored one afterwards', async () => {
    const keys = createDynamoKeyStore({ client, tableName: TABLE });
    const first = { id: 'acct-ensure', webhookSecret: 'whsec_first', createdAt: '2026-07-29T10:00:00.000Z' };
    expect(await keys.getAccount('acct-ensure')).toBeNull();
    expect(await keys.ensureAccount(first)).toEqual(first);
    expect(await keys.ensureAccount({ ...first, webhookSecret: 'whsec_second' })).toEqual(first);
    expect(await keys.getAccount('acct-ensure')).toEqual(first);
  });
});

describe('the upload store', () => {
  it('returns an upload to its own account only', async () => {
    const uploads = createDynamoUploadStore({ client, tableName: TABLE, clock });
    const upload: UploadRecord = {
      id: ids.next('upload'),
      accountId: 'acct-u1',
      key: 'acct-u1/uploads/x',
      mimeType: 'application/pdf',
      sizeBytes: 1234,
      createdAt: clock.now().toISOString(),
      expiresAt: new Date(clock.now().getTime() + 3600_000).toISOString(),
    };
    await uploads.putUpload(upload);
    expect(await uploads.getUpload('acct-u1', upload.id)).toEqual(upload);
    expect(await uploads.getUpload('acct-u2', upload.id)).toBeNull();
    expect(await uploads.getUpload('acct-u1', ids.next('upload'))).toBeNull();
  });

  it('keeps an upload usable for the retention window after its POST expires, then treats it as absent', async () => {
    const localClock = steppingClock(Date.parse('2026-07-29T10:00:00.000Z'));
    const uploads = createDynamoUploadStore({ client, tableName: TABLE, clock: localClock });
    const expiresMs = localClock.now().getTime() + 3600_000;
    const upload: UploadRecord = {
      id: ids.next('upload'),
      accountId: 'acct-u1',
      key: 'k',
      mimeType: 'image/png',
      sizeBytes: 1,
      createdAt: localClock.now().toISOString(),
      expiresAt: new Date(expiresMs).toISOString(),
    };
    await uploads.putUpload(upload);
    localClock.set(expiresMs + 60_000);
    expect(await uploads.getUpload('acct-u1', upload.id)).toEqual(upload);
    localClock.set(expiresMs + UPLOAD_RECORD_RETENTION_SECONDS * 1000 + 1000);
    expect(await uploads.getUpload('acct-u1', upload.id)).toBeNull();
  });
});

describe('the references to an upload', () => {
  it('counts each job once, survives the upload record, belongs to its account, and is gone with the last job', async () => {
    const uploads = createDynamoUploadStore({ client, tableName: TABLE, clock });
    const uploadId = ids.next('upload');
    await uploads.addReference('acct-r1', uploadId, 'job_a');
    await uploads.addReference('acct-r1', uploadId, 'job_a');
    await uploads.addReference('acct-r1', uploadId, 'job_b');
    expect(await uploads.referenceCount('acct-r1', uploadId)).toBe(2);
    // Another account neither sees nor changes them.
    expect(await uploads.referenceCount('acct-r2', uploadId)).toBe(0);
    await expect(uploads.addReference('acct-r2', uploadId, 'job_x')).rejects.toThrow();
    expect(await uploads.removeReference('acct-r2', uploadId, 'job_a')).toBe(0);
    expect(await uploads.referenceCount('acct-r1', uploadId)).toBe(2);

    expect(await uploads.removeReference('acct-r1', uploadId, 'job_a')).toBe(1);
    expect(await uploads.removeReference('acct-r1', uploadId, 'job_a')).toBe(1);
    expect(await uploads.removeReference('acct-r1', uploadId, 'job_b')).toBe(0);
    expect(await uploads.referenceCount('acct-r1', uploadId)).toBe(0);
    expect(await uploads.removeReference('acct-r1', uploadId, 'job_b')).toBe(0);
    // Nothing is left behind once no job refers to the upload.
    const item = await client.send(new GetCommand({ TableName: TABLE, Key: { pk: `UPLOAD#${uploadId}`, sk: 'REFS' } }));
    expect(item.Item).toBeUndefined();
  });
});

describe('the idempotency store', () => {
  const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"job":{"id":"job_x"}}' };

  it('claims a new key, reports it in progress, then replays the completed response', async () => {
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock });
    expect(await store.claim('acct-i1', 'key-1', 'hash-a', 86400)).toEqual({ state: 'claimed' });
    expect(await store.claim('acct-i1', 'key-1', 'hash-a', 86400)).toEqual({ state: 'in_progress' });
    await store.complete('acct-i1', 'key-1', response);
    expect(await store.claim('acct-i1', 'key-1', 'hash-a', 86400)).toEqual({ state: 'replay', response });
    expect(await store.claim('acct-i1', 'key-1', 'hash-b', 86400)).toEqual({ state: 'mismatch' });
  });

  it('keeps keys of different accounts apart', async () => {
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock });
    expect(await store.claim('acct-i2', 'shared', 'h1', 86400)).toEqual({ state: 'claimed' });
    expect(await store.claim('acct-i3', 'shared', 'h2', 86400)).toEqual({ state: 'claimed' });
  });

  it('lets exactly one of concurrent claims of the same key win', async () => {
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock });
    const claims = await Promise.all([1, 2, 3, 4].map(() => store.claim('acct-i4', 'race', 'h', 86400)));
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'in_progress')).toHaveLength(3);
  });

  it('frees a released claim but never forgets a completed response', async () => {
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock });
    await store.claim('acct-i5', 'k', 'h', 86400);
    await store.release('acct-i5', 'k');
    expect(await store.claim('acct-i5', 'k', 'other-body', 86400)).toEqual({ state: 'claimed' });
    await store.complete('acct-i5', 'k', response);
    await store.release('acct-i5', 'k');
    expect(await store.claim('acct-i5', 'k', 'other-body', 86400)).toEqual({ state: 'replay', response });
  });

  it('treats an expired record as absent', async () => {
    const localClock = steppingClock(Date.parse('2026-07-29T10:00:00.000Z'));
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock: localClock });
    await store.claim('acct-i6', 'k', 'h', 60);
    await store.complete('acct-i6', 'k', response);
    localClock.advance(61_000);
    expect(await store.claim('acct-i6', 'k', 'another', 60)).toEqual({ state: 'claimed' });
  });

  it('lets the same request re-claim an abandoned in-progress record, but not another body', async () => {
    const localClock = steppingClock(Date.parse('2026-07-29T10:00:00.000Z'));
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock: localClock });
    await store.claim('acct-i7', 'k', 'h', 86400);
    localClock.advance(IDEMPOTENCY_ABANDONED_AFTER_MS - 1000);
    expect(await store.claim('acct-i7', 'k', 'h', 86400)).toEqual({ state: 'in_progress' });
    localClock.advance(2000);
    expect(await store.claim('acct-i7', 'k', 'other', 86400)).toEqual({ state: 'mismatch' });
    expect(await store.claim('acct-i7', 'k', 'h', 86400)).toEqual({ state: 'claimed' });
  });

  it('stores and replays a response larger than one item would hold uncompressed', async () => {
    const store = createDynamoIdempotencyStore({ client, tableName: TABLE, clock });
    const tasks = Array.from({ length: 6000 }, (_, i) => ({ id: `task_${i}`, status: 'pending', steps: [{ type: 'preflight', params: {} }] }));
    const big = { statusCode: 202, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ job: { tasks } }) };
    expect(big.body.length).toBeGreaterThan(400 * 1024);
    await store.claim('acct-i8', 'big', 'h', 86400);
    await store.complete('acct-i8', 'big', big);
    expect(await store.claim('acct-i8', 'big', 'h', 86400)).toEqual({ state: 'replay', response: big });
  });
});
