/**
 * The preflight worker within its invocation's time (lambdas/steps/step-budget.ts):
 * a proof render that never finishes does not hold the step past its budget or
 * cost it its report. The budget is a fake Lambda context's few seconds.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { preflightGuarded } from '../../../lambdas/engine/guard/preflight-guarded';
import { renderProofs } from '../../../lambdas/engine/previews/proof';
import { buildPdf } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';
import { tempFiles } from '../engine/temp-files';

// The proof renderer never answers.
vi.mock('../../../lambdas/engine/previews/proof', () => ({
  renderProofs: vi.fn(() => new Promise(() => {})),
}));

const t = useWorkerServices();
const files = tempFiles('proof-budget');
const BUDGET_MS = 10_000;
const context = () => ({ getRemainingTimeInMillis: () => BUDGET_MS });

beforeAll(async () => {
  // A warm engine thread, as in a warm Lambda: its start is not what is measured here.
  await preflightGuarded({ path: files.write(await buildPdf(), 'pdf'), fileType: 'pdf', profileId: 'default', context: null });
});

describe('the preflight worker when proofs do not finish in time', () => {
  it('delivers the report and its outcome within the budget, and says why there are no proofs', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf(), ingested: { fileType: 'pdf', mimeType: 'application/pdf' }, steps: [{ type: 'preflight' }] }] });
    const t0 = Date.now();
    await expect(preflight(stepEvent(graph, 0, 0), context())).resolves.toMatchObject({ status: 'done', outcome: 'fail' });
    expect(Date.now() - t0).toBeLessThan(BUDGET_MS);
    expect(renderProofs).toHaveBeenCalledOnce();

    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'done', outcome: 'fail' });
    expect(steps[0]!.outputs.map((o) => o.role)).toEqual(['preflight-report']);
    expect(audit.at(-1)!.message).toMatch(/outcome fail \(profile default: .*\); no proof images: they were not finished within [\d.]+ s\.$/);
  });
});
