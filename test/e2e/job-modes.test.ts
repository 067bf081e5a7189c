/**
 * docs/api.md §3: each job-creating endpoint and completion mode.
 */
import { describe, expect, it } from 'vitest';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64, passwordPdfBase64, pdfaAndUaBase64 } from './support/files';
import { slowSourceServer } from './support/source-server';
import { target } from './support/target';

const TERMINAL = ['done', 'error'];

describe('async mode (the default for preflight, fix, previews and POST /jobs)', () => {
  it('POST /jobs/preflight answers 201 { job } at once, and the job reaches done with a report', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sources: [{ file: await onePagePdfBase64(), name: 'card.pdf', clientRef: 'line-1' }] } });
    expect(res.status).toBe(201);
    expect(res.body.pending).toBeUndefined();
    const job = res.body.job;
    expect(job.id).toMatch(/^job_[0-9a-z]{26}$/);
    expect(job.tasks).toHaveLength(1);
    expect(job.tasks[0].clientRef).toBe('line-1');
    expect(job.tasks[0].steps.map((s: any) => s.type)).toEqual(['preflight']);

    const done = await waitForJob(job.id);
    expect(done.status).toBe('done');
    expect(['pass', 'warn', 'fail']).toContain(done.outcome);
    expect(typeof done.canProceed).toBe('boolean');
    expect(done.workflowId).toBeTruthy();
    expect(done.summary).toMatchObject({ id: job.id, status: 'done', outcome: done.outcome, taskIds: [done.tasks[0].id] });
    expect(done.results.preflight).toHaveLength(1);
    const entry = done.results.preflight[0];
    expect(entry).toMatchObject({ taskId: done.tasks[0].id, stepType: 'preflight', status: 'done', outcome: done.outcome });
    expect(entry.report.document.pageCount).toBe(1);
    expect(Object.keys(done.results)).toEqual(['preflight']);
  });

  it('POST /jobs/fix builds [preflight, autofix, repreflight] and delivers the fixed file', async () => {
    const res = await api('POST', '/jobs/fix', { body: { repreflight: true, sources: [{ file: await onePagePdfBase64({ javascript: true }), name: 'js.pdf' }] } });
    expect(res.status).toBe(201);
    expect(res.body.job.tasks[0].steps.map((s: any) => s.type)).toEqual(['preflight', 'autofix', 'repreflight']);
    const done = await waitForJob(res.body.job.id);
    const fix = done.tasks[0].steps[1];
    expect(fix.outcome).toBe('fixed');
    expect(done.results.autofix[0].applied.map((a: any) => a.fixId)).toContain('actions.remove');
    const fixed = done.tasks[0].outputArtifacts.find((a: any) => a.role === 'fixed');
    expect(fixed).toBeTruthy();
    expect(done.deliverables).toHaveLength(1);
    expect(done.deliverables[0].key).toBe(fixed.key);
    expect(done.results.preflight.map((p: any) => p.stepType)).toEqual(['preflight', 'repreflight']);
  });

  it('POST /jobs/fix works until the file is right: the repreflight finds nothing more a fix could resolve', async () => {
    // A page without a TrimBox: normalising the boxes leaves it without bleed, which a second round mirrors in.
    const res = await api('POST', '/jobs/fix', { body: { repreflight: true, sources: [{ file: await onePagePdfBase64({ trimBox: false }), name: 'no-trim.pdf' }] } });
    expect(res.status).toBe(201);
    const done = await waitForJob(res.body.job.id);
    const autofix = done.results.autofix[0];
    expect(autofix.rounds.map((r: any) => r.applied.map((a: any) => a.fixId))).toEqual([['boxes.normalize'], ['bleed.mirror']]);
    expect(autofix.applied.map((a: any) => a.fixId)).toEqual(['boxes.normalize', 'bleed.mirror']);
    expect(done.tasks[0].steps[1].runtimeParams).toMatchObject({ rounds: 2, stoppedBecause: 'no-fixable-findings' });
    const [before, after] = done.results.preflight;
    expect(before.report.recommendedFixes).toEqual(['boxes.normalize']);
    expect(after.report.recommendedFixes).toEqual([]);
    expect(after.report.findings.filter((f: any) => f.fix?.available)).toEqual([]);
  });

  it('POST /jobs/previews renders page images', async () => {
    const res = await api('POST', '/jobs/previews', { body: { sources: [{ file: await onePagePdfBase64({ pages: 2 }), params: { format: 'png', dpi: 36 } }] } });
    expect(res.status).toBe(201);
    const done = await waitForJob(res.body.job.id);
    expect(done.outcome).toBe('na');
    const previews = done.tasks[0].outputArtifacts.filter((a: any) => a.role === 'preview');
    expect(previews.map((p: any) => p.page)).toEqual([1, 2]);
    expect(previews[0]).toMatchObject({ kind: 'image', mimeType: 'image/png', expiresIn: 3600 });
    expect(done.results.previews).toEqual([expect.objectContaining({ taskId: done.tasks[0].id, fileType: 'pdf', status: 'done', outcome: 'na', pages: 2 })]);
  });
});

describe('sync mode', () => {
  it('sync: true answers 200 { job } with a terminal job', async () => {
    const res = await api('POST', '/jobs/preflight', { body: { sync: true, sources: [{ file: await onePagePdfBase64() }] } });
    expect(res.status).toBe(200);
    expect(TERMINAL).toContain(res.body.job.status);
    expect(res.body.pending).toBeUndefined();
    expect(res.body.job.summary).toBeTruthy();
  });

  it.skipIf(!target().local)('answers 202 { job, pending: true } when the wait runs out, and the job goes on', async () => {
    const server = await slowSourceServer(target().syncWaitMs + 1500);
    try {
      const started = Date.now();
      const res = await api('POST', '/jobs/preflight', { body: { sync: true, sources: [{ url: server.url }] } });
      const waited = Date.now() - started;
      expect(res.status).toBe(202);
      expect(res.body.pending).toBe(true);
      expect(res.body.job.status).not.toBe('done');
      expect(waited).toBeGreaterThanOrEqual(target().syncWaitMs - 100);
      const done = await waitForJob(res.body.job.id);
      expect(done.status).toBe('done');
    } finally {
      await server.close();
    }
  });

  it('/jobs/validate is sync by default (200) and async: true gives 201 { job, pending: true }', async () => {
    const file = await onePagePdfBase64();
    const sync = await api('POST', '/jobs/validate', { body: { sources: [{ file, profile: '2b' }] } });
    expect(sync.status).toBe(200);
    const job = sync.body.job;
    expect(job.status).toBe('done');
    expect(job.results.validate).toHaveLength(1);
    const v = job.results.validate[0];
    expect(v.profiles[0]).toMatchObject({ requested: '2b', compliant: false });
    expect(v.compliant).toBe(false);
    expect(v.outcome).toBe('fail');

    const asyncRes = await api('POST', '/jobs/validate', { body: { async: true, sources: [{ file, profile: ['auto'] }] } });
    expect(asyncRes.status).toBe(201);
    expect(asyncRes.body.pending).toBe(true);
    const done = await waitForJob(asyncRes.body.job.id);
    // The file claims no conformance: auto matches nothing and says so.
    expect(done.results.validate[0].profiles[0]).toMatchObject({ requested: 'auto', matched: null, compliant: false });
  });

  it('/jobs/validate with auto validates every conformance a compliant file claims and passes it', async () => {
    const res = await api('POST', '/jobs/validate', { body: { sources: [{ file: await pdfaAndUaBase64(), profile: 'auto', name: 'accessible.pdf' }] } });
    expect(res.status).toBe(200);
    const v = res.body.job.results.validate[0];
    expect(v.profiles.map((p: { requested: string; matched: string; compliant: boolean }) => [p.requested, p.matched, p.compliant])).toEqual([
      ['auto', '2a', true],
      ['auto', 'ua1', true],
    ]);
    expect(v.profiles[0]).toMatchObject({ profileName: 'PDF/A-2a', failures: [], rules: { failed: 0 }, checks: { failed: 0 } });
    expect(v).toMatchObject({ compliant: true, outcome: 'pass' });
    expect(res.body.job.outcome).toBe('pass');
    expect(res.body.job.tasks[0].outputArtifacts ?? res.body.job.deliverables).toBeDefined();
  });

  it('/jobs/validate on a file that needs a password ends the task in error with a reason, not a verdict', async () => {
    const res = await api('POST', '/jobs/validate', { body: { sources: [{ file: await passwordPdfBase64(), profile: '2b' }] } });
    expect(res.status).toBe(200);
    const job = res.body.job;
    expect(job.status).toBe('error');
    expect(job.outcome).toBeNull();
    expect(job.tasks[0]).toMatchObject({ status: 'error', reason: expect.stringMatching(/password/) });
  });
});
