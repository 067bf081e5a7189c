/**
 * The single-table item layout, the inline result limit, the stored
 * idempotent response format and download dispositions.
 */
import { describe, expect, it } from 'vitest';
import {
  apiKeyToItem,
  auditSortKey,
  idempotencyItemKey,
  itemToApiKey,
  itemToJob,
  itemToUpload,
  jobToItem,
  RECORD_TTL_SLACK_SECONDS,
  stepToItem,
  taskToItem,
  itemToTask,
  jobRetentionTtl,
  uploadToItem,
  UPLOAD_RECORD_RETENTION_SECONDS,
} from '../../../lambdas/adapters/aws/dynamo-items';
import { assertStepFits, fitsInline, InlineResultTooLargeError, MAX_INLINE_RESULT_BYTES } from '../../../lambdas/adapters/aws/inline-result-limit';
import { decodeResponse, encodeResponse } from '../../../lambdas/adapters/aws/dynamo-idempotency-store';
import { decodeListCursor, encodeListCursor } from '../../../lambdas/adapters/aws/dynamo-job-list';
import { TABLE_SCHEMA } from '../../../lambdas/adapters/aws/table-schema';
import { ulidIdSource } from '../../../lambdas/domain/ids';
import { makeJobGraph } from '../../integration/adapters/job-fixtures';

const ids = ulidIdSource();

describe('the item layout', () => {
  it('puts a job in its own partition and on the account index, and reads back the same record', () => {
    const { job } = makeJobGraph({ ids, accountId: 'acct-9' });
    const item = jobToItem(job);
    expect(item).toMatchObject({ pk: `JOB#${job.id}`, sk: 'JOB', gsi1pk: 'ACCT#acct-9', gsi1sk: job.id, entity: 'job' });
    expect(itemToJob(item)).toEqual(job);
  });

  it("keeps a job's ISO expiry apart from the TTL of its job, task and step items, which comes a day later (the sweep goes first)", () => {
    const graph = makeJobGraph({ ids, accountId: 'acct-9' });
    const job = { ...graph.job, expiresAt: '2026-12-01T08:00:00.000Z' };
    const ttl = Date.parse(job.expiresAt) / 1000 + RECORD_TTL_SLACK_SECONDS;
    const item = jobToItem(job);
    expect(item).toMatchObject({ expiresAtIso: job.expiresAt, expiresAt: ttl });
    expect(itemToJob(item)).toEqual(job);
    const task = taskToItem(graph.tasks[0]!, jobRetentionTtl(job));
    expect(task.expiresAt).toBe(ttl);
    expect(itemToTask(task)).toEqual(graph.tasks[0]);
    expect(stepToItem(graph.steps[0]!, jobRetentionTtl(job)).expiresAt).toBe(ttl);
    // A job from before retention: no TTL on anything, and none read back.
    expect(jobToItem(graph.job)).not.toHaveProperty('expiresAt');
    expect(jobRetentionTtl(graph.job)).toEqual({});
  });

  it('puts a job with an expiry, and nothing else, on the expiry index, under the UTC day of its expiry', () => {
    const graph = makeJobGraph({ ids, accountId: 'acct-9' });
    const job = { ...graph.job, expiresAt: '2026-12-01T23:59:59.000Z' };
    const item = jobToItem(job);
    expect(item[TABLE_SCHEMA.expiryIndex.partitionKey]).toBe('2026-12-01');
    expect(item[TABLE_SCHEMA.expiryIndex.sortKey]).toBe(job.expiresAt);
    expect(itemToJob(item)).toEqual(job);
    const withoutExpiry = [jobToItem(graph.job), taskToItem(graph.tasks[0]!, jobRetentionTtl(job)), stepToItem(graph.steps[0]!, jobRetentionTtl(job))];
    for (const other of withoutExpiry) expect(other).not.toHaveProperty(TABLE_SCHEMA.expiryIndex.partitionKey);
    const upload = { id: 'upload_1', accountId: 'a', key: 'a/uploads/upload_1', mimeType: 'application/pdf', sizeBytes: 10, createdAt: job.createdAt, expiresAt: job.expiresAt };
    expect(uploadToItem(upload)).not.toHaveProperty(TABLE_SCHEMA.expiryIndex.partitionKey);
  });

  it('keeps an upload\'s ISO expiry apart from the numeric TTL attribute, which outlives it by the retention window', () => {
    const upload = {
      id: 'upload_1',
      accountId: 'a',
      key: 'a/uploads/upload_1',
      mimeType: 'application/pdf',
      sizeBytes: 10,
      createdAt: '2026-07-29T10:00:00.000Z',
      expiresAt: '2026-07-29T11:00:00.000Z',
    };
    const item = uploadToItem(upload);
    expect(item.expiresAt).toBe(Date.parse(upload.expiresAt) / 1000 + UPLOAD_RECORD_RETENTION_SECONDS);
    expect(itemToUpload(item)).toEqual(upload);
  });

  it('files API keys by the hash of their secret and lists them by id', () => {
    const key = { id: 'key_1', accountId: 'a', role: 'admin' as const, hash: 'f'.repeat(64), prefix: 'sk_live_Ab', createdAt: 'x', revokedAt: null };
    expect(apiKeyToItem(key)).toMatchObject({ pk: `KEY#${'f'.repeat(64)}`, gsi1pk: 'KEYS', gsi1sk: 'key_1' });
    expect(itemToApiKey(apiKeyToItem(key))).toEqual(key);
  });

  it('hashes idempotency keys so any 255 characters make a short partition key, per account', () => {
    const long = 'k'.repeat(255);
    expect(idempotencyItemKey('a', long).pk).toMatch(/^IDEM#a#[0-9a-f]{64}$/);
    expect(idempotencyItemKey('a', long).pk).not.toBe(idempotencyItemKey('b', long).pk);
  });

  it('sorts audit entries by time, then by append order within the same time', () => {
    const keys = [
      auditSortKey('task_1', '2026-07-29T10:00:01.000Z'),
      auditSortKey('task_1', '2026-07-29T10:00:01.000Z'),
      auditSortKey('task_1', '2026-07-29T10:00:00.500Z'),
    ];
    expect([...keys].sort()).toEqual([keys[2], keys[0], keys[1]]);
  });
});

describe('the job list cursor', () => {
  it('round-trips a job id and is URL-safe', () => {
    const id = ids.next('job');
    const cursor = encodeListCursor(id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor)).toBe(id);
  });
});

describe('the inline result limit', () => {
  it('accepts a result up to the limit and refuses one byte more, naming resultKey', () => {
    const exactly = 'x'.repeat(MAX_INLINE_RESULT_BYTES - 2); // JSON adds the quotes
    expect(fitsInline(exactly)).toBe(true);
    expect(() => assertStepFits('step_1', exactly)).not.toThrow();
    expect(fitsInline(`${exactly}x`)).toBe(false);
    expect(() => assertStepFits('step_1', `${exactly}x`)).toThrow(InlineResultTooLargeError);
  });

  it('counts UTF-8 bytes, not characters', () => {
    expect(fitsInline('ü'.repeat(MAX_INLINE_RESULT_BYTES / 2))).toBe(false);
  });

  it('refuses a step whose outputs make the whole item too large even with a small result', () => {
    const outputs = Array.from({ length: 2000 }, (_, i) => ({ kind: 'image', role: 'preview', key: `k/${'p'.repeat(150)}-${i}.png` }));
    expect(() => assertStepFits('step_1', { pages: 2000 }, { outputs })).toThrow(/step record/);
  });
});

describe('stored idempotent responses', () => {
  it('keeps a small body as text and compresses a large one, replaying both exactly', () => {
    const small = { statusCode: 201, headers: { a: 'b' }, body: '{"ok":true}' };
    expect(encodeResponse(small)).toEqual(small);
    const large = { statusCode: 200, headers: {}, body: JSON.stringify({ rows: Array.from({ length: 5000 }, (_, i) => ({ i })) }) };
    const encoded = encodeResponse(large);
    expect(encoded.body).toBeUndefined();
    expect(encoded.bodyGzip!.byteLength).toBeLessThan(large.body.length / 4);
    expect(decodeResponse(encoded)).toEqual(large);
  });
});
