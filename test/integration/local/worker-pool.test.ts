import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkerPool, type WorkerPool } from '../../../local/worker-pool';
import { LambdaInvocationError } from '../../../lambdas/adapters/local/lambda-errors';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function failureOf(p: Promise<unknown>): Promise<LambdaInvocationError> {
  const err = await p.then(() => { throw new Error('expected the invocation to fail'); }, (e: unknown) => e);
  expect(err).toBeInstanceOf(LambdaInvocationError);
  return err as LambdaInvocationError;
}

describe('the worker pool', () => {
  let pool: WorkerPool;

  beforeAll(() => {
    process.env.PROOFLINE_TEST_MARKER = 'set-before-start';
    pool = createWorkerPool({
      functions: {
        Test: { entry: fixture('test-worker.ts'), memoryMb: 256, timeoutSeconds: 900 },
        Broken: { entry: fixture('broken-worker.ts'), memoryMb: 256, timeoutSeconds: 900 },
      },
      timeoutMs: 1500,
      maxConcurrency: 2,
      log: () => {},
    });
  });
  afterAll(async () => {
    await pool.close();
    delete process.env.PROOFLINE_TEST_MARKER;
  });

  it('runs a TypeScript worker module in a thread that sees the runtime’s environment, the polyfills and a Lambda context', async () => {
    const out = (await pool.invoke('Test', { mode: 'echo', n: 1 })) as Record<string, unknown>;
    expect(out).toMatchObject({
      input: { mode: 'echo', n: 1 },
      env: 'set-before-start',
      functionName: 'proofline-local-Test',
      hasWithResolvers: true,
    });
    expect(out.remainingMs).toBeGreaterThan(0);
    expect(out.remainingMs).toBeLessThanOrEqual(1500);
  });

  it('prewarms one environment of each function, one after the other, which the first invocations then use instead of loading others', async () => {
    const functions = { A: { entry: fixture('test-worker.ts'), memoryMb: 256, timeoutSeconds: 900 }, B: { entry: fixture('test-worker.ts'), memoryMb: 256, timeoutSeconds: 900 } };
    const warm = createWorkerPool({ functions, maxConcurrency: 2, log: () => {} });
    try {
      warm.prewarm();
      // One at a time: B is loaded once A is.
      expect(warm.threads()).toEqual({ A: 1 });
      await vi.waitFor(() => expect(warm.threads()).toEqual({ A: 1, B: 1 }), { timeout: 10_000 });
      // Each prewarmed environment serves its function's first invocation.
      expect(await warm.invoke('A', { mode: 'echo' })).toMatchObject({ invocations: 1 });
      expect(await warm.invoke('B', { mode: 'echo' })).toMatchObject({ invocations: 1 });
      // Prewarming again starts nothing: every function has its environment.
      warm.prewarm();
      expect(warm.threads()).toEqual({ A: 1, B: 1 });
    } finally {
      await warm.close();
    }
  });

  it('keeps a thread warm between invocations, as Lambda reuses an environment', async () => {
    const a = (await pool.invoke('Test', { mode: 'echo' })) as { invocations: number };
    const b = (await pool.invoke('Test', { mode: 'echo' })) as { invocations: number };
    expect(b.invocations).toBe(a.invocations + 1);
  });

  it('reports an error the handler throws with its name as the Lambda errorType, and the thread survives', async () => {
    const err = await failureOf(pool.invoke('Test', { mode: 'throw' }));
    expect(err.name).toBe('UnprocessableFileError');
    expect(JSON.parse(err.message)).toMatchObject({ errorType: 'UnprocessableFileError', errorMessage: 'the file is unreadable' });
    expect(await pool.invoke('Test', { mode: 'echo' })).toMatchObject({ env: 'set-before-start' });
  });

  it('ends an invocation past its timeout with Sandbox.Timedout and discards that thread', async () => {
    const before = pool.threads().Test ?? 0;
    const started = Date.now();
    const err = await failureOf(pool.invoke('Test', { mode: 'sleep', ms: 20_000 }));
    expect(err.name).toBe('Sandbox.Timedout');
    expect(JSON.parse(err.message).errorMessage).toMatch(/Task timed out after 1\.50 seconds/);
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.threads().Test ?? 0).toBeLessThan(before + 1);
    expect(await pool.invoke('Test', { mode: 'echo' })).toMatchObject({ invocations: 1 });
  });

  it('turns a worker that exits into Runtime.ExitError without harming the server', async () => {
    const err = await failureOf(pool.invoke('Test', { mode: 'exit' }));
    expect(err.name).toBe('Runtime.ExitError');
    expect(JSON.parse(err.message).errorMessage).toMatch(/Runtime exited with error: exit status 3/);
    expect(await pool.invoke('Test', { mode: 'echo' })).toMatchObject({ invocations: 1 });
  });

  it('turns an uncaught exception in the thread into Runtime.ExitError', async () => {
    const err = await failureOf(pool.invoke('Test', { mode: 'uncaught' }));
    expect(err.name).toBe('Runtime.ExitError');
  });

  it('turns running out of the function’s memory into Runtime.OutOfMemory', async () => {
    // Its own pool without the short timeout of the others: filling 64 MB takes longer than 1.5 s on a loaded machine.
    const small = createWorkerPool({ functions: { Small: { entry: fixture('test-worker.ts'), memoryMb: 64, timeoutSeconds: 120 } }, log: () => {} });
    try {
      const err = await failureOf(small.invoke('Small', { mode: 'oom' }));
      expect(err.name).toBe('Runtime.OutOfMemory');
    } finally {
      await small.close();
    }
  });

  it('fails every invocation of a module that cannot load with Runtime.ImportModuleError', async () => {
    const err = await failureOf(pool.invoke('Broken', {}));
    expect(err.name).toBe('Runtime.ImportModuleError');
    expect(JSON.parse(err.message).errorMessage).toBe('cannot load the profiles');
  });

  it('after a burst, ends the spare threads of a function once idle and keeps one warm', async () => {
    const burstPool = createWorkerPool({
      functions: { Test: { entry: fixture('test-worker.ts'), memoryMb: 256, timeoutSeconds: 900 } },
      maxConcurrency: 2,
      spareIdleMs: 300,
      idleMs: 60_000,
      log: () => {},
    });
    try {
      // Counted while both are in flight: once one finishes it may already be retired as the spare
      // (a loaded machine can start the second thread long after the first has finished).
      const burst = Promise.all([1, 2].map((i) => burstPool.invoke('Test', { mode: 'sleep', ms: 100 * i })));
      expect(burstPool.threads().Test).toBe(2);
      await burst;
      const deadline = Date.now() + 10_000;
      while (burstPool.threads().Test !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(burstPool.threads().Test).toBe(1);
      // And the last one stays: only idleMs (a minute here) ends it.
      await new Promise((r) => setTimeout(r, 1000));
      expect(burstPool.threads().Test).toBe(1);
      // The one kept is warm: it serves the next invocation without a new thread.
      await burstPool.invoke('Test', { mode: 'sleep', ms: 1 });
      expect(burstPool.threads().Test).toBe(1);
    } finally {
      await burstPool.close();
    }
  });

  it('replaces its last thread, once that has served and then idled, by a fresh warm one, and leaves a fresh unused one alone', async () => {
    // Each load of the worker module appends a line here: the starts can be counted.
    const starts = join(tmpdir(), `proofline-starts-${randomUUID()}`);
    const startCount = () => (existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n').length : 0);
    const recycling = createWorkerPool({
      functions: { Test: { entry: fixture('test-worker.ts'), memoryMb: 256, timeoutSeconds: 900 } },
      spareIdleMs: 300,
      idleMs: 60_000,
      env: { ...process.env, PROOFLINE_TEST_STARTS: starts },
      log: () => {},
    });
    try {
      const used = (await recycling.invoke('Test', { mode: 'echo' })) as { threadId: number; invocations: number };
      expect(startCount()).toBe(1);
      // Idle past spareIdleMs after serving: a fresh environment is loaded in its place.
      await vi.waitFor(() => expect(startCount()).toBe(2), { timeout: 10_000, interval: 50 });
      await vi.waitFor(() => expect(recycling.threads()).toEqual({ Test: 1 }), { timeout: 10_000 });
      // The fresh one has served nothing, so idling does not replace it again.
      await new Promise((r) => setTimeout(r, 1500));
      expect(startCount()).toBe(2);
      // It is warm: the next invocation runs there, without loading the module again.
      const next = (await recycling.invoke('Test', { mode: 'echo' })) as { threadId: number; invocations: number };
      expect(next.threadId).not.toBe(used.threadId);
      expect(next.invocations).toBe(1);
      expect(startCount()).toBe(2);
      expect(recycling.threads()).toEqual({ Test: 1 });
    } finally {
      await recycling.close();
      rmSync(starts, { force: true });
    }
  });

  it('queues invocations beyond its concurrency instead of failing them', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((i) => pool.invoke('Test', { mode: 'sleep', ms: 200 + i })));
    expect(results).toEqual([{ slept: 201 }, { slept: 202 }, { slept: 203 }, { slept: 204 }]);
    expect(pool.threads().Test).toBeLessThanOrEqual(2);
  });
});
