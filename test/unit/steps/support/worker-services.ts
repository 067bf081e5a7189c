/**
 * The services a worker suite runs against: started once per test file over
 * dynalite and s3rver, installed as services() (the workers ask for them), and
 * the workers' one-line-per-invocation logs kept out of the test output.
 * The returned object is filled in before the first test runs.
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { setServices } from '../../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../../support/test-services';

export function useWorkerServices(opts?: Parameters<typeof startTestServices>[0]): TestServices {
  const t = {} as TestServices;
  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    Object.assign(t, await startTestServices(opts));
    setServices(t.services);
  });
  afterAll(async () => {
    setServices(undefined);
    await t.stop?.();
  });
  return t;
}
