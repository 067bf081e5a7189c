import { describe, expect, it, vi } from 'vitest';
import { useWorkerServices } from './support/worker-services';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { buildPdf } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

// The proof renderer breaks down for a reason of its own.
vi.mock('../../../lambdas/engine/previews/proof', () => ({
  renderProofs: vi.fn(async () => {
    throw new Error('canvas exhausted');
  }),
}));

const t = useWorkerServices();

describe('the preflight worker when proofs cannot be made', () => {
  it('still delivers the report and its outcome, and says in the audit log that the proofs are missing', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf(), ingested: { fileType: 'pdf', mimeType: 'application/pdf' }, steps: [{ type: 'preflight' }] }] });
    const before = t.log.lines().length;
    await expect(preflight(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'fail' });
    // Logged for the operator as a warning with its reason, the step's own line as done.
    const lines = t.log.lines().slice(before);
    expect(lines.find((l) => l.level === 'WARN')).toMatchObject({ jobId: graph.job.id, error: { message: 'canvas exhausted' } });
    expect(lines.at(-1)).toMatchObject({ level: 'INFO', message: 'preflight done', jobId: graph.job.id });
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    expect(steps[0]).toMatchObject({ status: 'done', outcome: 'fail' });
    expect(steps[0]!.outputs.map((o) => o.role)).toEqual(['preflight-report']);
    expect(audit.at(-1)!.message).toMatch(/outcome fail \(profile default: .*\); the proof images could not be made\.$/);
    // The internal error's text is not shown to the customer.
    expect(audit.at(-1)!.message).not.toContain('canvas');
  });
});
