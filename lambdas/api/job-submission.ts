/**
 * What every job-creating handler does once its body is parsed into a
 * JobRequest (docs/api.md §3): check the URLs against the network policy, create the
 * job, then answer according to the mode —
 * - async: 201 `{ job }` (with `pending: true` on /jobs/validate's async flag);
 * - sync: wait up to SYNC_WAIT_MS from the request's arrival (sync-wait.ts);
 *   200 `{ job }` when terminal, else 202 `{ job, pending: true }` (the job
 *   goes on; the webhook fires either way).
 * Each job created is counted by its route (JobsCreated), and each sync answer
 * that had to be 202 too (SyncRequestsPending).
 */
import { createJob } from '../domain/use-cases/create-job';
import { awaitTerminalJob } from '../domain/use-cases/await-job';
import type { JobRequest } from '../domain/use-cases/job-request';
import { presentJob } from '../domain/present/job';
import { services } from '../platform/services';
import { recordMetric } from '../platform/observability/metrics';
import type { Context } from 'aws-lambda';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { syncWaitLeft } from './sync-wait';
import { assertRequestUrlsAllowed } from './url-rules';
import { appendCorrelationKeys, logger } from '../observability/logger';

export type SubmissionMode = { sync: true } | { sync: false; markPending: boolean };

export async function submitJob(event: ApiEvent, request: JobRequest, mode: SubmissionMode, context?: Partial<Pick<Context, 'getRemainingTimeInMillis'>>): Promise<ApiResult> {
  const svc = services();
  const caller = callerOf(event);
  assertRequestUrlsAllowed(request, svc.config.networkMode, svc.config.reservedPorts);
  const created = await createJob(svc, caller, request);
  // From here every line of this request carries the job's id: the first of the job's lines.
  appendCorrelationKeys({ jobId: created.job.id });
  logger.info({ message: 'job created', tasks: created.tasks.length, steps: created.steps.length, sync: mode.sync, webhook: created.job.webhook !== null });
  // The route template (`/jobs/preflight`), set by API Gateway and the local runtime alike.
  const endpoint = event.resource || 'unknown';
  recordMetric('jobsCreated', { endpoint });
  const presentDeps = { blobs: svc.blobs, expiresIn: svc.config.downloadUrlExpiresSeconds };

  if (!mode.sync) {
    const job = await presentJob(created, presentDeps);
    return json(201, mode.markPending ? { job, pending: true } : { job });
  }

  const waitMs = syncWaitLeft({
    waitMs: svc.config.syncWaitMs,
    arrivedAtMs: event.requestContext?.requestTimeEpoch,
    nowMs: Date.now(),
    remainingMs: context?.getRemainingTimeInMillis?.(),
  });
  const waited = await awaitTerminalJob({ jobs: svc.jobs }, caller.accountId, created.job.id, waitMs);
  // Deleted while we waited (DELETE from another request): show it as created.
  const job = await presentJob(waited.graph ?? created, presentDeps);
  if (waited.terminal) return json(200, { job });
  recordMetric('syncRequestsPending', { endpoint });
  return json(202, { job, pending: true });
}
