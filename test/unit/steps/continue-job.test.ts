import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler as continueJob, jobIdOfExpressExecution, jobIdsOf } from '../../../lambdas/steps/continue-job';
import { useWorkerServices } from './support/worker-services';
import { createTestJob, reload } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const bytes = new Uint8Array([37, 80, 68, 70]);

const expressRun = (jobId: string): string => `arn:aws:states:eu-west-1:123456789012:express:proofline-JobPipeline:${jobId}:0f4c2d1e-5b6a-4c3d-8e9f-a0b1c2d3e4f5`;

/** What CloudWatch Logs hands a subscribed function: base64 of the gzipped batch. */
function subscriptionEvent(records: unknown[]): unknown {
  const batch = { messageType: 'DATA_MESSAGE', logGroup: '/aws/vendedlogs/states/pipeline', logEvents: records.map((r, i) => ({ id: String(i), timestamp: 0, message: JSON.stringify(r) })) };
  return { awslogs: { data: gzipSync(Buffer.from(JSON.stringify(batch))).toString('base64') } };
}

describe('ContinueJob', () => {
  it('reads the job id from an Express execution ARN, and nothing from any other', () => {
    expect(jobIdOfExpressExecution(expressRun('job_01abc'))).toBe('job_01abc');
    expect(jobIdOfExpressExecution('arn:aws:states:eu-west-1:123456789012:execution:proofline-JobPipeline:job_01abc')).toBeNull();
    expect(jobIdOfExpressExecution(42)).toBeNull();
  });

  it('reads each job once from a log subscription batch, skipping records it cannot parse', () => {
    const event = subscriptionEvent([
      { type: 'ExecutionTimedOut', execution_arn: expressRun('job_a') },
      { type: 'ExecutionFailed', execution_arn: expressRun('job_b') },
      { type: 'ExecutionTimedOut', execution_arn: expressRun('job_a') },
    ]);
    expect(jobIdsOf(event)).toEqual(['job_a', 'job_b']);
    expect(jobIdsOf({ awslogs: { data: 'not gzip' } })).toEqual([]);
    expect(jobIdsOf({ jobId: 'job_c' })).toEqual(['job_c']);
    expect(jobIdsOf(null)).toEqual([]);
  });

  it('continues an unfinished job in the Standard machine and records that execution on the job', async () => {
    const graph = await createTestJob(t.services, { status: 'running', tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'running' }] }] });
    const continued = t.orchestrator.continued.length;
    const result = await continueJob(subscriptionEvent([{ type: 'ExecutionTimedOut', execution_arn: expressRun(graph.job.id) }]));
    expect(result).toEqual({ continued: [graph.job.id], ignored: [] });
    const [input] = t.orchestrator.continued.slice(continued);
    expect(input).toMatchObject({ jobId: graph.job.id, accountId: graph.job.accountId, tasks: [{ taskId: graph.tasks[0]!.id, steps: [{ type: 'preflight', index: 0 }] }] });
    expect((await reload(t.services, graph.job.id)).job.workflowId).toBe(`local-standard:${graph.job.id}`);
  });

  it('leaves a finished or deleted job alone', async () => {
    const done = await createTestJob(t.services, { status: 'done', tasks: [{ bytes, ingested: pdf, steps: [{ type: 'preflight', status: 'done', outcome: 'pass' }] }] });
    const continued = t.orchestrator.continued.length;
    expect(await continueJob({ jobId: done.job.id })).toEqual({ continued: [], ignored: [done.job.id] });
    expect(await continueJob({ jobId: 'job_gone' })).toEqual({ continued: [], ignored: ['job_gone'] });
    expect(t.orchestrator.continued.length).toBe(continued);
  });
});
