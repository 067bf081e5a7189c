/**
 * docs/api.md §11: what the clients written for the original service send and
 * read, over HTTP, one test per rule that is not a field shape (those are in
 * reference-shapes.test.ts): request fields accepted (rule 7), the request id
 * header (8), the report's evaluation (5), previews outputs (6), profiles by
 * id (10), results and deliverables tied to their task (4), times (3). The
 * sync boundary (9) is test/integration/local/sync-boundary.test.ts, optimize
 * is optimize.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { api, postForm, waitForJob } from './support/client';
import { onePagePdfBase64, onePagePdfBytes } from './support/files';

describe('what the existing clients send is accepted (rule 7)', () => {
  it('context on POST /jobs/preflight narrows the profile as on POST /jobs: a 5 mm bleed order fails a 3 mm bleed file', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { context: { bleed: { required_mm: 5 } }, sources: [{ file: await onePagePdfBase64(), mimeType: 'application/pdf' }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.context).toEqual({ bleed: { required_mm: 5 } });
    const done = await waitForJob(res.body.job.id);
    expect(done.tasks[0].steps[0].runtimeParams.contextApplied).toContain('bleed');
    expect(done.results.preflight[0].report.findings.map((f: { checkId: string }) => f.checkId)).toContain('bleed.insufficient');
  });

  it('context on POST /jobs/fix is kept on the job', async () => {
    const res = await api('POST', '/jobs/fix', { body: { context: { pageCount: { min: 1, max: 2 } }, sources: [{ file: await onePagePdfBase64() }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.context).toEqual({ pageCount: { min: 1, max: 2 } });
  });

  it('mimeType on a source is a hint: the task shows it until the bytes decide', async () => {
    const res = await api('POST', '/jobs', { body: { sources: [{ file: await onePagePdfBase64(), mimeType: 'application/octet-stream', steps: [{ type: 'preflight' }] }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.tasks[0]).toMatchObject({ mimeType: 'application/octet-stream', fileType: null });
    const done = await waitForJob(res.body.job.id);
    expect(done.tasks[0]).toMatchObject({ mimeType: 'application/pdf', fileType: 'pdf' });
  });

  it('POST /uploads without mimeType: the form uploads the file and a job reads it', async () => {
    const bytes = await onePagePdfBytes();
    const upload = await api('POST', '/uploads', { body: { sizeBytes: bytes.length } });
    expect(upload.status).toBe(200);
    expect((await postForm(upload.body.upload, new Blob([Buffer.from(bytes)]), 'card.pdf')).status).toBeLessThan(300);
    const job = await api('POST', '/jobs/preflight', { body: { sources: [{ fileRef: upload.body.fileRef }] } });
    expect(job.status).toBe(201);
    expect((await waitForJob(job.body.job.id)).tasks[0].fileType).toBe('pdf');
  });
});

describe('what the existing clients read', () => {
  it('the request id as apigw-requestid as well as x-request-id, on answers and errors (rule 8)', async () => {
    for (const res of [await api('GET', '/profiles'), await api('GET', '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x'), await api('GET', '/jobs', { key: null })]) {
      expect(res.headers.get('apigw-requestid')).toBeTruthy();
      expect(res.headers.get('apigw-requestid')).toBe(res.headers.get('x-request-id'));
    }
  });

  it('the preflight report’s evaluation lists the findings a client shows and filters by severity (rule 5)', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { context: { bleed: { required_mm: 5 } }, sources: [{ file: await onePagePdfBase64() }] } });
    const report = (await waitForJob(res.body.job.id)).results.preflight[0].report;
    const evaluation = report.evaluation;
    const bySeverity = (s: string) => evaluation.findings.filter((f: { severity: string }) => f.severity === s);
    // The file's standard Helvetica is not embedded: a reject under the default profile.
    expect(bySeverity('reject').map((f: { ruleId: string }) => f.ruleId)).toContain('fonts.not-embedded');
    const bleed = evaluation.findings.find((f: { ruleId: string }) => f.ruleId === 'bleed.insufficient');
    expect(bleed).toMatchObject({ sectionId: 'geometry', severity: 'warn', target: 'pages', page: 1, measured_mm: 3, required_mm: 5, autofix: { available: true, fixId: 'bleed.mirror' } });
    expect(bleed.locate.boxes[0]).toMatchObject({ page: 1, rect: expect.any(Array) });
    // The counts agree with the list, as a client's badge and its list must.
    expect(evaluation.summary).toMatchObject({ fail: bySeverity('reject').length, warn: bySeverity('warn').length, ignored: bySeverity('ignore').length });
    expect(evaluation.summary.pass).toBe(evaluation.passed.length);
    expect(evaluation.passed.length).toBeGreaterThan(0);
    // The snake_case siblings beside it.
    expect(report.pdf).toBeTruthy();
    expect(report.pages[0].bleed_pt).toBeDefined();
  });

  it('one profile by id, with kind and source; an unknown id is a 404 (rule 10)', async () => {
    const res = await api('GET', '/profiles/gwg-sheetfed-cmyk');
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ id: 'gwg-sheetfed-cmyk', kind: 'pdf', source: 'store' });
    const missing = await api('GET', '/profiles/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('a previews step lists its pages: count, total and each page image, fetchable (rule 6)', async () => {
    const res = await api('POST', '/jobs/previews', { body: { sources: [{ file: Buffer.from(await onePagePdfBytes({ pages: 3 })).toString('base64'), params: { format: 'png', dpi: 36, pages: '1-2' } }] } });
    expect(res.status).toBe(201);
    const done = await waitForJob(res.body.job.id);
    const entry = done.tasks[0].steps[0].outputs.at(-1);
    expect(entry).toMatchObject({ kind: 'previews', count: 2, total: 3 });
    expect(entry.pages.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    const image = await fetch(entry.pages[0].url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('results and deliverables name their task, and the summary its times as the clients parse them (rules 3 and 4)', async () => {
    const res = await api('POST', '/jobs/fix', { body: { sources: [{ file: await onePagePdfBase64({ javascript: true }) }, { file: await onePagePdfBase64() }] } });
    const done = await waitForJob(res.body.job.id);
    const taskIds = done.tasks.map((t: { id: string }) => t.id);
    expect(done.deliverables.map((d: { taskId: string }) => d.taskId).sort()).toEqual([...taskIds].sort());
    for (const entry of [...done.results.preflight, ...done.results.autofix]) {
      expect(Object.keys(entry).slice(0, 7)).toEqual(['taskId', 'fileRef', 'source', 'fileType', 'mimeType', 'status', 'outcome']);
      expect(taskIds).toContain(entry.taskId);
    }
    expect(typeof done.summary.created).toBe('number');
    expect(new Date(done.summary.finalized).toISOString()).toBe(done.summary.finalized);
  });
});
