import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../../../lambdas/observability/logger';
import { withInvocationLog } from '../../../lambdas/observability/invocation';
import { enableInvocationScopes, inInvocationScope } from '../../../local/invocation-scope';
import { captureLogLines, type CapturedLog } from '../../support/log-lines';

let log: CapturedLog;
const previous = process.env.AWS_LAMBDA_MAX_CONCURRENCY;
beforeAll(() => {
  enableInvocationScopes();
  log = captureLogLines();
});
afterAll(() => {
  log.restore();
  if (previous === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  else process.env.AWS_LAMBDA_MAX_CONCURRENCY = previous;
});

/** One job's invocation: logs, waits (another runs meanwhile), logs again. */
const invocation = (jobId: string, waitMs: number) =>
  inInvocationScope(`req-${jobId}`, () =>
    withInvocationLog({ awsRequestId: `req-${jobId}`, functionName: 'proofline-local-finalise' }, { jobId }, async () => {
      logger.info('started');
      await sleep(waitMs);
      logger.info('ended');
    }),
  );

describe('invocation scopes in the local runtime’s main thread', () => {
  it('keep the log keys of invocations that run at once apart', async () => {
    await Promise.all([invocation('job_a', 30), invocation('job_b', 5), invocation('job_c', 15)]);
    logger.info('outside any invocation');
    const lines = log.lines();
    for (const jobId of ['job_a', 'job_b', 'job_c']) {
      const own = lines.filter((l) => l.function_request_id === `req-${jobId}`);
      expect(own.map((l) => [l.message, l.jobId])).toEqual([['started', jobId], ['ended', jobId]]);
    }
    expect(lines.at(-1)).not.toHaveProperty('jobId');
    expect(lines.at(-1)).not.toHaveProperty('function_request_id');
  });
});
