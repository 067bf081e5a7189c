import { describe, expect, it } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { loadStepResult } from '../../../lambdas/domain/load-step-result';
import type { PreflightReportLike } from '../../../lambdas/domain/step-results';
import { buildPdf, garbageAfterHeader, pngBytes } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };

describe('the preflight worker', () => {
  it('checks the file against the default profile and stores the report inline and as a downloadable report', async () => {
    // Helvetica is not embedded: the default profile counts that as an error.
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 2 }), ingested: pdf, steps: [{ type: 'preflight' }] }] });
    const summary = await preflight(stepEvent(graph, 0, 0));
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    const step = steps[0]!;
    const report = (await loadStepResult(t.services.blobs, step)) as PreflightReportLike;

    expect(summary).toMatchObject({ status: 'done', outcome: 'fail' });
    expect(step).toMatchObject({ status: 'done', outcome: 'fail', runtimeParams: expect.objectContaining({ profileId: 'default' }) });
    expect(report).toMatchObject({ profile: { id: 'default' }, outcome: 'fail' });
    expect(report.summary.pages).toBe(2);
    expect(report.findings.some((f) => /font/i.test(f.checkId))).toBe(true);
    expect(step.outputs.filter((o) => o.kind === 'report')).toEqual([expect.objectContaining({ kind: 'report', role: 'preflight-report', mimeType: 'application/json', fileName: 'card-preflight-report.json' })]);
    expect(JSON.parse(Buffer.from(await t.services.blobs.getBytes(step.outputs[0]!.key)).toString())).toEqual(report);
    expect(audit.at(-1)).toMatchObject({ event: 'step.finished', message: expect.stringMatching(/outcome fail \(profile default: \d+ errors?, \d+ warnings?\)/) });
  });

  it('counts the pages it has analysed on the step\'s record, out of the file\'s pages', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 5 }), ingested: pdf, steps: [{ type: 'preflight' }] }] });
    await preflight(stepEvent(graph, 0, 0));
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]!.pages).toEqual({ total: 5, done: { main: 5 } });
  });

  it('preflights a raster file too', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await pngBytes({ width: 400, height: 300, density: 300 }), name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [{ type: 'preflight' }] }],
    });
    await preflight(stepEvent(graph, 0, 0));
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    expect(step.status).toBe('done');
    expect(['pass', 'warn', 'fail']).toContain(step.outcome);
    expect(((await loadStepResult(t.services.blobs, step)) as { document: { kind: string } }).document.kind).toBe('raster');
  });

  it('names the file it judged, with its size, in the report\'s source', async () => {
    const bytes = await pngBytes({ width: 40, height: 30, density: 300 });
    const graph = await createTestJob(t.services, { tasks: [{ bytes, name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [{ type: 'preflight' }] }] });
    await preflight(stepEvent(graph, 0, 0));
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    expect(((await loadStepResult(t.services.blobs, step)) as { source: unknown }).source).toEqual({ name: 'photo.png', sizeBytes: bytes.length });
  });

  it('ends step and task in error with the engine\'s explanation when the PDF cannot be read', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: garbageAfterHeader(), name: 'broken.pdf', ingested: pdf, steps: [{ type: 'preflight' }, { type: 'repreflight' }] }] });
    await expect(preflight(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'error' });
    await expect(preflight(stepEvent(graph, 0, 1))).resolves.toMatchObject({ status: 'skipped' });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(task.status).toBe('error');
    expect(task.reason).toMatch(/PDF/);
    expect(task.reason).not.toMatch(/\bat .*:\d+|\.ts\b|node_modules/);
    expect(steps[0]).toMatchObject({ status: 'error', reason: task.reason });
    expect(steps[1]).toMatchObject({ status: 'skipped', reason: 'Not run: an earlier step of this task failed.' });
  });

  it('re-run on a finished step changes nothing', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf(), ingested: pdf, steps: [{ type: 'preflight' }] }] });
    await preflight(stepEvent(graph, 0, 0));
    const once = await reload(t.services, graph.job.id);
    await preflight(stepEvent(graph, 0, 0));
    expect(await reload(t.services, graph.job.id)).toEqual(once);
  });
});
