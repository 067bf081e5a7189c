import { describe, expect, it } from 'vitest';
import { setServices } from '../../../lambdas/platform/services';
import { useWorkerServices } from './support/worker-services';
import { handler as finalise, parseFinaliseEvent } from '../../../lambdas/steps/finalise';
import { INTERRUPTED_TASK, NOT_RUN_INTERRUPTED } from '../../../lambdas/steps/job-finaliser';
import { EARLIER_STEP_FAILED } from '../../../lambdas/steps/task-records';
import type { StoredArtifact } from '../../../lambdas/domain/model';
import { createTestJob, reload, taskView, type JobSpec } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const bytes = new Uint8Array([37, 80, 68, 70]);

async function finaliseJob(spec: JobSpec) {
  const graph = await createTestJob(t.services, spec);
  const published = t.events.published.length;
  await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
  const after = await reload(t.services, graph.job.id);
  return { after, events: t.events.published.slice(published).filter((e) => e.jobId === graph.job.id) };
}

describe('finalise', () => {
  it('ends each task with the verdict of its check steps and the job with the outcome they share, else mixed', async () => {
    const { after, events } = await finaliseJob({
      webhook: true,
      tasks: [
        { bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }, { type: 'previews', status: 'done', outcome: 'na' }] },
        { bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'fail' }] },
      ],
    });
    expect(taskView(after, 0).task).toMatchObject({ status: 'done', outcome: 'pass' });
    expect(taskView(after, 1).task).toMatchObject({ status: 'done', outcome: 'fail' });
    expect(after.job).toMatchObject({ status: 'done', outcome: 'mixed', canProceed: false });
    expect(after.job.finalizedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(events).toEqual([{ jobId: after.job.id, accountId: after.job.accountId, status: 'done', outcome: 'mixed', hasWebhook: true }]);
    expect(taskView(after, 0).audit.map((a) => a.event)).toContain('task.finished');
  });

  it('sets canProceed by policy.onFail: reject and manual_review hold a failed file, accept_with_warnings lets it through', async () => {
    const failing = (onFail: 'reject' | 'accept_with_warnings' | 'manual_review'): JobSpec => ({
      onFail,
      tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'fail' }] }],
    });
    expect((await finaliseJob(failing('reject'))).after.job.canProceed).toBe(false);
    expect((await finaliseJob(failing('accept_with_warnings'))).after.job.canProceed).toBe(true);
    expect((await finaliseJob(failing('manual_review'))).after.job.canProceed).toBe(false);
    const warned = await finaliseJob({ tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'warn' }] }] });
    expect(warned.after.job).toMatchObject({ status: 'done', outcome: 'warn', canProceed: true });
  });

  it('lets a repreflight supersede the preflight before it and keeps the fixed file as the task\'s current file', async () => {
    const fixed: StoredArtifact = { kind: 'file', role: 'fixed', bucket: 'b', key: 'acct/jobs/x/fixed.pdf', mimeType: 'application/pdf', sizeBytes: 4, fileName: 'card-fixed.pdf' };
    const { after } = await finaliseJob({
      tasks: [
        {
          bytes,
          ingested: pdf,
          steps: [
            { type: 'preflight', status: 'done', outcome: 'fail' },
            { type: 'autofix', status: 'done', outcome: 'fixed', outputs: [fixed] },
            { type: 'repreflight', status: 'done', outcome: 'pass' },
          ],
        },
      ],
    });
    expect(taskView(after, 0).task).toMatchObject({ status: 'done', outcome: 'pass', currentFile: fixed });
    expect(after.job).toMatchObject({ outcome: 'pass', canProceed: true });
  });

  it('fails a task whose step failed, skips the steps after it, and makes the job error only when every task is error', async () => {
    const { after, events } = await finaliseJob({
      tasks: [
        {
          bytes,
          ingested: pdf,
          steps: [{ type: 'preflight', status: 'error', reason: 'The file is not a readable PDF.' }, { type: 'previews' }],
        },
      ],
    });
    const { task, steps } = taskView(after, 0);
    expect(task).toMatchObject({ status: 'error', outcome: null, reason: 'The file is not a readable PDF.' });
    expect(steps[1]).toMatchObject({ status: 'skipped', reason: EARLIER_STEP_FAILED });
    expect(after.job).toMatchObject({ status: 'error', outcome: null, canProceed: false });
    expect(events[0]).toMatchObject({ status: 'error', outcome: null, hasWebhook: false });
  });

  it('makes one errored task among passing ones a done job with outcome mixed that cannot proceed', async () => {
    const { after } = await finaliseJob({
      onFail: 'accept_with_warnings',
      tasks: [
        { bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }] },
        { status: 'error', reason: 'The source URL answered HTTP 404.', steps: [{ type: 'preflight' }] },
      ],
    });
    expect(taskView(after, 1).steps[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^Not run: the source/) });
    expect(after.job).toMatchObject({ status: 'done', outcome: 'mixed', canProceed: false });
  });

  it('finalises a job once: a second call changes nothing and publishes nothing', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }] }] });
    const before = t.events.published.length;
    const first = await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
    const once = await reload(t.services, graph.job.id);
    const second = await finalise({ jobId: graph.job.id, accountId: graph.job.accountId });
    const twice = await reload(t.services, graph.job.id);
    expect(first).toMatchObject({ result: 'finalised' });
    expect(second).toMatchObject({ result: 'already-terminal' });
    expect(t.events.published.slice(before).filter((e) => e.jobId === graph.job.id)).toHaveLength(1);
    expect(twice.job).toEqual(once.job);
    expect(twice.tasks).toEqual(once.tasks);
    expect(once.job.eventPublishedAt).toBeTruthy();
  });

  it('rethrows when the terminal event cannot be published, and the retry publishes it exactly once', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }] }] });
    const real = t.services.events;
    const sent: unknown[] = [];
    let failing = true;
    setServices({
      ...t.services,
      events: {
        async publishJobTerminal(event) {
          if (failing) throw Object.assign(new Error('EventBridge unavailable'), { name: 'ServiceUnavailable' });
          sent.push(event);
        },
        publishJobDecision: real.publishJobDecision,
      },
    });
    try {
      await expect(finalise({ jobId: graph.job.id, accountId: graph.job.accountId })).rejects.toThrow('EventBridge unavailable');
      const stuck = await reload(t.services, graph.job.id);
      expect(stuck.job.status).toBe('done');
      expect(stuck.job.eventPublishedAt ?? null).toBeNull();

      failing = false;
      await expect(finalise({ jobId: graph.job.id, accountId: graph.job.accountId })).resolves.toMatchObject({ result: 'republished' });
      await expect(finalise({ jobId: graph.job.id, accountId: graph.job.accountId })).resolves.toMatchObject({ result: 'already-terminal' });
      expect(sent).toEqual([{ jobId: graph.job.id, accountId: graph.job.accountId, status: 'done', outcome: 'pass', hasWebhook: false }]);
      expect((await reload(t.services, graph.job.id)).job.modifiedAt).toBe(stuck.job.modifiedAt);
    } finally {
      setServices({ ...t.services, events: real });
    }
  });

  it('ends an abandoned execution terminal: unstarted work is skipped, running work is an error, tasks say they were interrupted', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [
        { locator: { kind: 'url', url: 'http://127.0.0.1:9/never.pdf' }, steps: [{ type: 'preflight' }] },
        { bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'running' }, { type: 'previews' }] },
      ],
    });
    await finalise({ jobId: graph.job.id, accountId: graph.job.accountId, abandoned: true });
    const after = await reload(t.services, graph.job.id);
    const never = taskView(after, 0);
    const cut = taskView(after, 1);
    expect(never.task).toMatchObject({ status: 'error', reason: INTERRUPTED_TASK });
    expect(never.steps[0]).toMatchObject({ status: 'skipped' });
    expect(cut.steps[0]).toMatchObject({ status: 'error', reason: 'The preflight step was interrupted before it finished.' });
    expect(cut.steps[1]).toMatchObject({ status: 'skipped', reason: NOT_RUN_INTERRUPTED });
    expect(cut.task).toMatchObject({ status: 'error', reason: INTERRUPTED_TASK });
    expect(after.job).toMatchObject({ status: 'error', canProceed: false });
    expect(after.steps.every((s) => ['done', 'skipped', 'error'].includes(s.status))).toBe(true);
  });

  it('accepts the raw EventBridge event of a failed execution, whose input is a JSON string', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes, ingested: pdf, steps: [{ type: 'validate', status: 'running' }] }] });
    const event = {
      version: '0',
      source: 'aws.states',
      'detail-type': 'Step Functions Execution Status Change',
      detail: {
        executionArn: `arn:aws:states:us-east-1:000000000000:execution:jobs:${graph.job.id}`,
        status: 'TIMED_OUT',
        input: JSON.stringify({ jobId: graph.job.id, accountId: graph.job.accountId, tasks: [] }),
      },
    };
    await expect(finalise(event)).resolves.toMatchObject({ result: 'finalised', status: 'error' });
    expect(taskView(await reload(t.services, graph.job.id), 0).steps[0]).toMatchObject({ status: 'error', reason: 'The validate step was interrupted before it finished.' });
  });

  it('ignores events that name no job, executions that were stopped on purpose, and jobs that were deleted', async () => {
    expect(parseFinaliseEvent({ hello: 'world' })).toBeNull();
    expect(parseFinaliseEvent({ detail: { status: 'ABORTED', input: '{"jobId":"job_x"}' } })).toBeNull();
    expect(parseFinaliseEvent({ detail: { status: 'FAILED', input: 'not json' } })).toBeNull();
    expect(parseFinaliseEvent({ executionArn: 'arn', status: 'FAILED', input: '{"jobId":"job_x","accountId":"a"}' })).toEqual({ jobId: 'job_x', accountId: 'a', abandoned: true });
    // The CDK rule's input transformer: { abandoned: true, detail: <the event's detail> }.
    expect(parseFinaliseEvent({ abandoned: true, detail: { status: 'FAILED', input: '{"jobId":"job_y","accountId":"b","tasks":[]}' } })).toEqual({ jobId: 'job_y', accountId: 'b', abandoned: true });
    await expect(finalise({ jobId: 'job_01h00000000000000000000000', accountId: 'a' })).resolves.toEqual({ result: 'missing' });
  });
});
