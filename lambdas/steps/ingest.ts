/**
 * Ingest (state `Ingest`): brings a task's source into the job's storage, detects
 * its type and starts the task. Input `{ jobId, accountId, taskId }`; returns
 * `{ ok }` for the `SourceReady` choice: false means the task is already recorded
 * `error` (or was finished by someone else) and its steps must not run.
 *
 * A source that cannot be had (refused URL, HTTP 404, too large, empty, expired
 * upload) is the customer's problem: the task ends `error` with a reason and this
 * returns normally. Anything else is ours: recorded the same way, then rethrown
 * so Step Functions sees the failure (IngestFailed finds the task already failed).
 */
import '../platform/polyfills';
import type { Context } from 'aws-lambda';
import type { StoredArtifact } from '../domain/model';
import { UnprocessableFileError } from '../domain/errors';
import { services } from '../platform/services';
import { recordMetric, withMetricsFlushed } from '../platform/observability/metrics';
import { findTask } from './task-graph';
import { retrieveSource } from './source-retrieval';
import { audit, failTask } from './task-records';
import { unexpectedIngestReason } from './failure-reasons';
import { withScratchDir } from './scratch-dir';
import { discardFilesOfDeletedJob } from './deleted-job';
import { elapsedSince, logInvocation, type InvocationFailure } from './invocation-log';
import { withInvocationLog } from '../observability/invocation';

export interface IngestInput {
  jobId: string;
  accountId: string;
  taskId: string;
}

export interface IngestOutput {
  ok: boolean;
}

export function handler(event: IngestInput, context?: Partial<Context>): Promise<IngestOutput> {
  return withInvocationLog(context, { jobId: event.jobId, accountId: event.accountId, taskId: event.taskId }, () => withMetricsFlushed(() => ingest(event)));
}

async function ingest(event: IngestInput): Promise<IngestOutput> {
  const startedAt = Date.now();
  const log = (result: string, failure: InvocationFailure = {}): void =>
    logInvocation({ worker: 'ingest', jobId: event.jobId, accountId: event.accountId, taskId: event.taskId, result, durationMs: elapsedSince(startedAt), ...failure });
  const s = services();

  const graph = await s.jobs.getGraphById(event.jobId);
  const task = graph ? findTask(graph, event.taskId) : undefined;
  if (!graph || !task) {
    // Deleted while queued (DELETE /jobs stops the execution, but not instantly).
    log('missing');
    return { ok: false };
  }
  if (task.status === 'running' && task.originalArtifact) {
    log('already-ingested');
    return { ok: true };
  }
  if (task.status !== 'pending' && task.status !== 'running') {
    log(`already-${task.status}`);
    return { ok: false };
  }
  // The first task to start starts the job; later ones find it running already.
  await s.jobs.transitionJob(graph.job.id, ['pending'], 'running');

  try {
    const source = await withScratchDir('ingest', (dir) => retrieveSource(s, graph.job, task, dir));
    const original: StoredArtifact = {
      kind: 'file',
      role: 'source',
      bucket: s.blobs.bucket,
      key: source.key,
      mimeType: source.mimeType,
      sizeBytes: source.sizeBytes,
      fileName: source.fileName,
      ...(source.etag ? { etag: source.etag } : {}),
    };
    // From `running` too: an earlier attempt that died after the transition but
    // before recording the file is completed by this one.
    const started = await s.jobs.transitionTask(graph.job.id, task.id, ['pending', 'running'], 'running', {
      fileType: source.fileType,
      mimeType: source.mimeType,
      originalArtifact: original,
      currentFile: original,
    });
    if (!started) {
      log((await discardFilesOfDeletedJob(s, graph.job.accountId, graph.job.id)) ? 'job-deleted' : 'task-moved-on');
      return { ok: false };
    }
    // The task has its file now: a failed audit write must not turn it into an error.
    try {
      await s.jobs.appendAudit(graph.job.id, task.id, source.audit);
      await audit(s, graph.job.id, task.id, 'type.detected', `Detected ${source.fileType} (${source.mimeType}) from the file's content.`);
    } catch (err) {
      log('running', { error: err });
      return { ok: true };
    }
    log('running');
    return { ok: true };
  } catch (err) {
    if (err instanceof UnprocessableFileError) {
      await failTask(s, graph.job.id, task.id, err.message, 'source.failed');
      recordMetric('unreadableFiles', { stage: 'ingest' });
      log('error', { reason: err.message, error: err });
      return { ok: false };
    }
    const reason = unexpectedIngestReason(err);
    try {
      await failTask(s, graph.job.id, task.id, reason, 'source.failed');
    } catch {
      /* IngestFailed records it when the store is back */
    }
    log('error', { reason, error: err });
    throw err;
  }
}
