import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { appendCorrelationKeys, componentLog, logger } from '../../../lambdas/observability/logger';
import { withInvocationLog } from '../../../lambdas/observability/invocation';
import { generateSecret } from '../../../lambdas/domain/keys/secret-format';
import { captureLogLines, type CapturedLog } from '../../support/log-lines';

const context = {
  awsRequestId: 'c0ffee00-0000-4000-8000-000000000001',
  functionName: 'proofline-preflight',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:proofline-preflight',
  memoryLimitInMB: '1769',
} as Context;

const TRACE = 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1';

let log: CapturedLog;
beforeEach(() => {
  log = captureLogLines();
});
afterEach(() => {
  log.restore();
  logger.resetKeys();
  delete process.env._X_AMZN_TRACE_ID;
});

describe('the logger', () => {
  it('writes one JSON object a line with the same keys everywhere: level, message, timestamp, service and the correlation keys', async () => {
    process.env._X_AMZN_TRACE_ID = TRACE;
    await withInvocationLog(context, { jobId: 'job_1', accountId: 'acct', taskId: 'task_1', stepId: 'step_1' }, async () => {
      appendCorrelationKeys({ requestId: 'req-1' });
      logger.info('preflight done');
    });
    expect(log.text().split('\n')).toHaveLength(1);
    expect(log.lines()[0]).toEqual({
      level: 'INFO',
      message: 'preflight done',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'proofline',
      requestId: 'req-1',
      accountId: 'acct',
      jobId: 'job_1',
      taskId: 'task_1',
      stepId: 'step_1',
      cold_start: false,
      function_name: 'proofline-preflight',
      function_arn: context.invokedFunctionArn,
      function_memory_size: '1769',
      function_request_id: context.awsRequestId,
      xray_trace_id: '1-67891233-abcdef012345678912345678',
      sampling_rate: 0,
    });
  });

  it('logs an error at level error with its reason and stack', () => {
    logger.error({ message: 'step failed', reason: 'The file is not a PDF.' }, new TypeError('cannot read the xref'));
    const [line] = log.lines();
    expect(line).toMatchObject({ level: 'ERROR', message: 'step failed', reason: 'The file is not a PDF.' });
    expect(line!.error).toMatchObject({ name: 'TypeError', message: 'cannot read the xref', stack: expect.stringContaining('TypeError: cannot read the xref') });
  });

  it("drops an invocation's keys when it ends, thrown or not, so a warm function never writes one job's ids on the next", async () => {
    await withInvocationLog(context, { jobId: 'job_1', accountId: 'acct' }, async () => logger.info('first'));
    await expect(
      withInvocationLog(context, { jobId: 'job_2' }, async () => {
        logger.info('second');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    logger.info('between invocations');
    const [first, second, between] = log.lines();
    expect(first).toMatchObject({ jobId: 'job_1', accountId: 'acct' });
    expect(second).toMatchObject({ jobId: 'job_2' });
    expect(second).not.toHaveProperty('accountId');
    expect(between).not.toHaveProperty('jobId');
  });

  it('drops keys an earlier invocation left (one cut short) when the next starts', async () => {
    appendCorrelationKeys({ jobId: 'job_left_over' });
    await withInvocationLog(context, { jobId: 'job_2' }, async () => logger.info('next'));
    expect(log.lines()[0]).toMatchObject({ jobId: 'job_2' });
  });

  it('never writes an API key, a bearer token or file bytes, even when handed them', () => {
    const key = generateSecret('test');
    logger.error({ message: `refused ${key}`, headers: { authorization: `Bearer ${key}` }, file: Buffer.from('%PDF-1.4') }, new Error(`bad key ${key}`));
    expect(log.text()).not.toContain(key.slice(3));
    expect(log.text()).not.toContain('%PDF');
  });

  it("names the local runtime's part that logs, at info, or at error with the error", () => {
    const report = componentLog('worker-pool');
    report('thread started');
    report('thread crashed', new Error('out of memory'), { jobId: 'job_1' });
    const [info, error] = log.lines();
    expect(info).toMatchObject({ level: 'INFO', message: 'thread started', component: 'worker-pool' });
    expect(error).toMatchObject({ level: 'ERROR', message: 'thread crashed', component: 'worker-pool', jobId: 'job_1', error: { message: 'out of memory' } });
  });
});
