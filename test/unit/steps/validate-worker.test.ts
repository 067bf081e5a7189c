import { describe, expect, it } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { handler as validate } from '../../../lambdas/steps/validate';
import type { ValidateStepResult } from '../../../lambdas/domain/step-results';
import { buildPdf, pdfaSpec, pngBytes } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

describe('the validate worker', () => {
  it('checks the requested profiles and stores the result inline and as a validation report', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await buildPdf(pdfaSpec(2, 'b')), ingested: { fileType: 'pdf', mimeType: 'application/pdf' }, steps: [{ type: 'validate', params: { profile: ['2b', 'ua1'] } }] }],
    });
    await expect(validate(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done' });
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    const result = step.result as ValidateStepResult;
    expect(result.profiles.map((p) => p.requested)).toEqual(['2b', 'ua1']);
    // Partial rule coverage never claims compliance.
    expect(result.compliant).toBe(false);
    expect(step).toMatchObject({ outcome: 'fail', runtimeParams: { profile: ['2b', 'ua1'] } });
    expect(step.outputs).toEqual([expect.objectContaining({ kind: 'report', role: 'validation-report', fileName: 'card-validation-report.json' })]);
    expect(JSON.parse(Buffer.from(await t.services.blobs.getBytes(step.outputs[0]!.key)).toString())).toEqual(result);
  });

  it('is skipped on a PNG with a reason naming the step and the file type', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await pngBytes(), name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [{ type: 'validate', params: { profile: '2b' } }] }],
    });
    await expect(validate(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'skipped' });
    const { task, steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'skipped', outcome: null, outputs: [] });
    expect(steps[0]!.reason).toMatch(/validate.*raster/);
    expect(task.status).toBe('running');
    expect(audit).toEqual([expect.objectContaining({ event: 'step.skipped', stepId: steps[0]!.id })]);
  });
});
