/**
 * ContinueJob: a job whose Express execution ended without finishing it
 * (timed out at the five-minute limit, failed, aborted) continues in the
 * Standard machine (step-definitions/job-pipeline.ts says why there are two).
 * The Standard execution is named after the job, so continuing twice starts
 * it once; the steps already done are not run again.
 *
 * Accepted inputs:
 * - in the cloud, a CloudWatch Logs subscription event from the Express
 *   machine's log group, filtered to its ExecutionTimedOut, ExecutionFailed
 *   and ExecutionAborted events (lib/constructs/pipeline.ts):
 *   `{ awslogs: { data: <base64 of gzipped JSON> } }`, each log event's
 *   message the Step Functions log record whose `execution_arn` ends
 *   `:express:<machine>:<job id>:<run id>`;
 * - locally, `{ jobId }` from the local orchestrator.
 * A job that is finished or gone (DELETE /jobs/{id}) is left alone.
 */
import '../platform/polyfills';
import { gunzipSync } from 'node:zlib';
import { isTerminal } from '../domain/model';
import { pipelineInputOf } from '../domain/use-cases/create-job';
import type { Context } from 'aws-lambda';
import { withInvocationLog } from '../observability/invocation';
import { services } from '../platform/services';
import { asObject } from './event-object';
import { elapsedSince, logInvocation } from './invocation-log';

/** The job id of an Express execution ARN (arn:aws:states:<region>:<account>:express:<machine>:<name>:<run id>). */
export function jobIdOfExpressExecution(arn: unknown): string | null {
  if (typeof arn !== 'string') return null;
  const parts = arn.split(':');
  return parts.length === 9 && parts[5] === 'express' && parts[7] ? parts[7] : null;
}

/** The job ids an event names, each once. */
export function jobIdsOf(event: unknown): string[] {
  const root = asObject(event);
  if (!root) return [];
  if (typeof root.jobId === 'string') return [root.jobId];
  const data = asObject(root.awslogs)?.data;
  if (typeof data !== 'string') return [];
  let batch: Record<string, unknown> | null;
  try {
    batch = asObject(JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')));
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const logEvent of Array.isArray(batch?.logEvents) ? batch.logEvents : []) {
    let record: Record<string, unknown> | null = null;
    try {
      record = asObject(JSON.parse(String(asObject(logEvent)?.message ?? '')));
    } catch {
      continue;
    }
    const id = jobIdOfExpressExecution(record?.execution_arn);
    if (id) ids.add(id);
  }
  return [...ids];
}

export interface ContinueJobResult {
  continued: string[];
  /** Finished or deleted jobs: nothing to continue. */
  ignored: string[];
}

export function handler(event: unknown, context?: Partial<Context>): Promise<ContinueJobResult> {
  const jobIds = jobIdsOf(event);
  // A batch names one job nearly always; its lines then carry that job's id.
  return withInvocationLog(context, { jobId: jobIds.length === 1 ? jobIds[0] : undefined }, () => continueJobs(jobIds));
}

async function continueJobs(jobIds: string[]): Promise<ContinueJobResult> {
  const s = services();
  const result: ContinueJobResult = { continued: [], ignored: [] };
  for (const jobId of jobIds) {
    const startedAt = Date.now();
    const log = (outcome: string, error?: unknown): void =>
      logInvocation({ worker: 'continueJob', jobId, result: outcome, durationMs: elapsedSince(startedAt), ...(error === undefined ? {} : { error }) });
    try {
      const graph = await s.jobs.getGraphById(jobId);
      if (!graph || isTerminal(graph.job.status)) {
        result.ignored.push(jobId);
        log(graph ? `already-${graph.job.status}` : 'missing');
        continue;
      }
      const workflowId = await s.orchestrator.continueJob(pipelineInputOf(graph));
      // DELETE /jobs/{id} stops the execution the job names: from now on the Standard one.
      await s.jobs.patchJob(jobId, { workflowId });
      result.continued.push(jobId);
      log('continued-in-standard');
    } catch (err) {
      log('failed', err);
      throw err;
    }
  }
  return result;
}
