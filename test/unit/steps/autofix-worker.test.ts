import { fixOrder } from '../../../lambdas/engine/profile-catalogue';
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { useWorkerServices } from './support/worker-services';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { handler as autofix } from '../../../lambdas/steps/autofix';
import { loadStepResult } from '../../../lambdas/domain/load-step-result';
import type { AutofixStepResult, PreflightReportLike } from '../../../lambdas/domain/step-results';
import { buildPdf } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };

describe('the autofix worker', () => {
  it('stores a changed file as the step\'s fixed output and makes it the task\'s current file', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: 2 }), ingested: pdf, steps: [{ type: 'autofix', params: { items: ['boxes.normalize'] } }] }] });
    await expect(autofix(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'fixed' });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    const step = steps[0]!;
    const fixed = step.outputs[0]!;
    expect(step.outputs).toHaveLength(1);
    expect(fixed).toMatchObject({ kind: 'file', role: 'fixed', mimeType: 'application/pdf', fileName: 'card-fixed.pdf' });
    expect(task.currentFile).toEqual(fixed);
    expect(task.originalArtifact!.role).toBe('source');
    expect((step.result as AutofixStepResult).applied).toEqual([expect.objectContaining({ fixId: 'boxes.normalize', pages: [1, 2] })]);

    const doc = await PDFDocument.load(await t.services.blobs.getBytes(fixed.key));
    expect(doc.getPages().every((p) => p.node.get(PDFName.of('TrimBox')) !== undefined)).toBe(true);
    expect(fixed.sizeBytes).toBe((await t.services.blobs.head(fixed.key))!.sizeBytes);
  });

  it('applies what the preceding preflight recommended when no items are given', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await buildPdf({ documentJavaScript: 'app.alert("hi")' }), ingested: pdf, steps: [{ type: 'preflight' }, { type: 'autofix' }] }],
    });
    await preflight(stepEvent(graph, 0, 0));
    await autofix(stepEvent(graph, 0, 1));
    const { steps } = taskView(await reload(t.services, graph.job.id), 0);
    const recommended = ((await loadStepResult(t.services.blobs, steps[0]!)) as PreflightReportLike).recommendedFixes;
    expect(recommended).toContain('actions.remove');
    // Applied in the catalogue's order, whatever order the report lists them in.
    expect(steps[1]!.runtimeParams).toMatchObject({ profileId: 'default', fixesFrom: 'recommended', fixes: [...recommended].sort((a, b) => fixOrder(a) - fixOrder(b)) });
    expect((steps[1]!.result as AutofixStepResult).applied.map((a) => a.fixId)).toContain('actions.remove');
  });

  it('reports unchanged, with no output and the current file left alone, when there is nothing to fix', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf(), ingested: pdf, steps: [{ type: 'autofix', params: { items: ['actions.remove', 'no.such.fix'] } }] }] });
    await expect(autofix(stepEvent(graph, 0, 0))).resolves.toMatchObject({ outcome: 'unchanged' });
    const { task, steps } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'done', outcome: 'unchanged', outputs: [] });
    expect((steps[0]!.result as AutofixStepResult).skipped.map((s) => s.fixId)).toEqual(['actions.remove', 'no.such.fix']);
    expect(task.currentFile).toEqual(task.originalArtifact);
  });
});
