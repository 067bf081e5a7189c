/**
 * The services a worker suite runs against: started once per test file over
 * dynalite and s3rver, installed as services() (the workers ask for them), and
 * the workers' log lines kept out of the test output, in `log` for the tests that
 * read them. The returned object is filled in before the first test runs.
 */
import { afterAll, beforeAll } from 'vitest';
import { setServices } from '../../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../../support/test-services';
import { captureLogLines, type CapturedLog } from '../../../support/log-lines';

export function useWorkerServices(opts?: Parameters<typeof startTestServices>[0]): TestServices & { log: CapturedLog } {
  const t = {} as TestServices & { log: CapturedLog };
  beforeAll(async () => {
    t.log = captureLogLines();
    Object.assign(t, await startTestServices(opts));
    setServices(t.services);
  });
  afterAll(async () => {
    setServices(undefined);
    t.log?.restore();
    await t.stop?.();
  });
  return t;
}
