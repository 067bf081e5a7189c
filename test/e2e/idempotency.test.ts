/**
 * docs/api.md §7 Idempotency-Key: the same key and body returns the first response
 * again and creates nothing; another body is a 409.
 */
import { describe, expect, it } from 'vitest';
import { api, expectErrorShape } from './support/client';
import { onePagePdfBase64 } from './support/files';

const newKey = () => `idem-${Date.now()}-${Math.random().toString(36).slice(2)}`;

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same key and body, creating nothing new', async () => {
    const key = newKey();
    const tag = key;
    const body = { metaData: { tag }, sources: [{ file: await onePagePdfBase64() }] };
    const first = await api('POST', '/jobs/preflight', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api('POST', '/jobs/preflight', { body, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.job.id).toBe(first.body.job.id);

    const list = await api('GET', '/jobs?limit=100&preview=true');
    expect(list.body.jobs.filter((j: any) => j.metaData?.tag === tag)).toHaveLength(1);
  });

  it('works on every POST, uploads included', async () => {
    const key = newKey();
    const body = { mimeType: 'application/pdf', sizeBytes: 1234 };
    const a = await api('POST', '/uploads', { body, headers: { 'idempotency-key': key } });
    const b = await api('POST', '/uploads', { body, headers: { 'idempotency-key': key } });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.fileRef).toBe(a.body.fileRef);
  });

  it('the same key with another body is 409 idempotency_key_reused', async () => {
    const key = newKey();
    await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: 10 }, headers: { 'idempotency-key': key } });
    const res = await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: 11 }, headers: { 'idempotency-key': key } });
    expectErrorShape(res, 409, 'idempotency_key_reused');
  });

  it('a key longer than 255 characters is refused', async () => {
    const res = await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: 10 }, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expectErrorShape(res, 400, 'validation_error');
  });
});
