import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { isId } from '../../../lambdas/domain/ids';
import { uploadResponse } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, call } from './support/api-client';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices({ config: { uploadExpiresSeconds: 900 } });
});
afterAll(() => t?.stop());
beforeEach(() => setServices(t.services));

describe('POST /uploads', () => {
  it('answers 200 { fileRef, upload: { url, fields, method: POST }, maxBytes, expiresIn }', async () => {
    const res = await call('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: 1234 } });
    expect(res.status).toBe(200);
    expect(uploadResponse.safeParse(res.body).success).toBe(true);
    expect(isId('upload', res.body.fileRef)).toBe(true);
    expect(res.body).toMatchObject({ maxBytes: 1234, expiresIn: 900, upload: { method: 'POST', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/) } });
    expect(res.body.upload.fields.key).toBe(`${ACCOUNT_A.accountId}/uploads/${res.body.fileRef}`);
    // The policy storage enforces: the exact size bound and content type.
    const policy = JSON.parse(Buffer.from(res.body.upload.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', 1, 1234]]));
  });

  it('records the upload for the creating account only', async () => {
    const res = await call('POST', '/uploads', { body: { mimeType: 'image/png', sizeBytes: 10 } });
    const mine = await t.services.uploads.getUpload(ACCOUNT_A.accountId, res.body.fileRef);
    expect(mine).toMatchObject({ id: res.body.fileRef, mimeType: 'image/png', sizeBytes: 10 });
    expect(await t.services.uploads.getUpload(ACCOUNT_B.accountId, res.body.fileRef)).toBeNull();
  });

  it('hands out a form that uploads the file, which a job can then use as fileRef', async () => {
    const bytes = Buffer.from('%PDF-1.7\n%uploaded\n');
    const res = await call('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: bytes.length } });
    const form = new FormData();
    for (const [name, value] of Object.entries(res.body.upload.fields as Record<string, string>)) form.append(name, value);
    form.append('Content-Type', 'application/pdf');
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'card.pdf');
    const uploaded = await fetch(res.body.upload.url, { method: 'POST', body: form });
    expect(uploaded.status).toBeLessThan(300);

    const job = await call('POST', '/jobs', { body: { sources: [{ fileRef: res.body.fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(job.status).toBe(201);
    expect(job.body.job.tasks[0].fileRef).toBe(res.body.fileRef);
  });

  it('takes an upload without mimeType, as clients that do not know the type send it: the form carries application/octet-stream and the job still reads a PDF', async () => {
    const bytes = Buffer.from('%PDF-1.7\n%uploaded without a type\n');
    const res = await call('POST', '/uploads', { body: { sizeBytes: bytes.length } });
    expect(res.status).toBe(200);
    expect(res.body.upload.fields['Content-Type']).toBe('application/octet-stream');
    expect(await t.services.uploads.getUpload(ACCOUNT_A.accountId, res.body.fileRef)).toMatchObject({ mimeType: 'application/octet-stream' });
    const form = new FormData();
    for (const [name, value] of Object.entries(res.body.upload.fields as Record<string, string>)) form.append(name, value);
    form.append('file', new Blob([bytes]), 'card.pdf');
    const uploaded = await fetch(res.body.upload.url, { method: 'POST', body: form });
    expect(uploaded.status).toBeLessThan(300);
    const job = await call('POST', '/jobs', { body: { sources: [{ fileRef: res.body.fileRef, steps: [{ type: 'preflight' }] }] } });
    expect(job.status).toBe(201);
  });

  it('needs a key', async () => {
    const res = await call('POST', '/uploads', { caller: null, body: { mimeType: 'application/pdf', sizeBytes: 1 } });
    expect(res.status).toBe(401);
  });
});
