/**
 * A finished job, written through the real JobStore the way the finaliser leaves
 * it, with a webhook target; and its account, created with a key so it has a
 * webhook secret. What the webhook caller reads, nothing more.
 */
import type { JobRecord, StepRecord, TaskRecord, WebhookTarget } from '../../../../lambdas/domain/model';
import type { Services } from '../../../../lambdas/domain/ports';
import { iso } from '../../../../lambdas/domain/ids';
import { issueKey } from '../../../../lambdas/domain/keys';

export interface FinishedJob {
  jobId: string;
  accountId: string;
  webhookSecret: string;
}

export async function createFinishedJob(s: Services, opts: { accountId: string; webhook: WebhookTarget | null }): Promise<FinishedJob> {
  const { webhookSecret, id: keyId } = await issueKey(s.keys, s.ids, s.clock, { accountId: opts.accountId });
  const now = iso(s.clock.now());
  const jobId = s.ids.next('job');
  const taskId = s.ids.next('task');
  const stepId = s.ids.next('step');
  const source = { kind: 'file' as const, role: 'source' as const, bucket: s.blobs.bucket, key: `${opts.accountId}/${jobId}/${taskId}/card.pdf`, mimeType: 'application/pdf', sizeBytes: 1234, fileName: 'card.pdf' };
  const step: StepRecord = {
    id: stepId, jobId, taskId, index: 0, type: 'preflight', status: 'done', outcome: 'pass', reason: null,
    params: { profileId: 'default' }, runtimeParams: { profileId: 'default' }, started: now, ended: now, duration: 12,
    outputs: [], result: null, resultKey: null,
  };
  const task: TaskRecord = {
    id: taskId, jobId, accountId: opts.accountId, createdAt: now, updatedAt: now, status: 'done', outcome: 'pass', reason: null,
    fileType: 'pdf', mimeType: 'application/pdf', source: 'card.pdf', locator: { kind: 'inline', key: source.key, sizeBytes: 1234 },
    fileRef: null, clientRef: 'line-1', name: 'card.pdf', originalArtifact: source, currentFile: source, stepIds: [stepId],
  };
  const job: JobRecord = {
    id: jobId, accountId: opts.accountId, keyId, endpoint: 'preflight', createdAt: now, modifiedAt: now, status: 'done', outcome: 'pass',
    canProceed: true, ruleId: null, workflowId: `local:${jobId}`, channel: 'api', metaData: { order: 'A-1' }, orderId: 'A-1',
    customerId: null, customerEmail: null, policy: { onFail: 'reject' }, context: null,
    webhook: opts.webhook ? { ...opts.webhook, deliveries: [] } : null, review: null, taskIds: [taskId], finalizedAt: now,
  };
  await s.jobs.createJob({ job, tasks: [task], steps: [step] });
  return { jobId, accountId: opts.accountId, webhookSecret };
}
