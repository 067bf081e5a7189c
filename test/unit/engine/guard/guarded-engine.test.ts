import { execFileSync } from 'node:child_process';
import { isMainThread, threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { endWarmEngineThreads } from '../../../../lambdas/engine/guard/engine-thread';
import { repoPath } from '../../../../lib/paths';
import { testEngineGuarded, type TestEngineInput } from './test-engine';

afterAll(() => endWarmEngineThreads());

const outcome = (input: TestEngineInput, limits?: Parameters<typeof testEngineGuarded>[1]) =>
  testEngineGuarded(input, limits).then(
    (value) => ({ value, error: undefined }),
    (error: Error) => ({ value: undefined, error }),
  );

describe('a guarded engine', () => {
  it('runs the engine in another thread and hands back its answer', async () => {
    const answer = (await testEngineGuarded({ behaviour: 'answer', value: { pages: [1, 2] } })) as { value: unknown; isMainThread: boolean; threadId: number };
    expect(isMainThread).toBe(true);
    expect(answer.value).toEqual({ pages: [1, 2] });
    expect(answer.isMainThread).toBe(false);
    expect(answer.threadId).not.toBe(threadId);
  });

  it('keeps a thread warm between calls instead of loading the engine again', async () => {
    const first = (await testEngineGuarded({ behaviour: 'answer', value: 1 })) as { threadId: number };
    const second = (await testEngineGuarded({ behaviour: 'answer', value: 2 })) as { threadId: number };
    expect(second.threadId).toBe(first.threadId);
  });

  it('hands the thread its stream decoding limits', async () => {
    const answer = (await testEngineGuarded({ behaviour: 'answer', value: null }, { maxStreamDecodedMb: 3, maxDocumentDecodedMb: 7 })) as {
      decodeLimits: unknown;
    };
    expect(answer.decodeLimits).toEqual({ maxStreamBytes: 3 * 1024 * 1024, maxDocumentBytes: 7 * 1024 * 1024 });
  });

  it('tells the engine its soft deadline, 80% into the budget, so it can wrap up with a partial result', async () => {
    await testEngineGuarded({ behaviour: 'answer', value: 'warm up' });
    const called = Date.now();
    const answer = (await testEngineGuarded({ behaviour: 'answer', value: null }, { timeoutMs: 10_000 })) as { deadline: number };
    expect(answer.deadline - called).toBeGreaterThanOrEqual(8_000 - 50);
    expect(answer.deadline - called).toBeLessThanOrEqual(8_000 + 500);
  });

  it('stops an engine that runs past its budget and says so in a sentence for the customer', async () => {
    const started = Date.now();
    const { error } = await outcome({ behaviour: 'spin' }, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(UnprocessableFileError);
    expect(error?.message).toBe(
      'Testing stopped after 0.3 s: the file is too complex to test within the time limit. ' +
        'Simplify it (for example flatten transparency or reduce the number of pages) or split it into smaller files, and send it again.',
    );
  });

  it('answers the next call after a thread was stopped', async () => {
    await outcome({ behaviour: 'spin' }, { timeoutMs: 200 });
    expect(await testEngineGuarded({ behaviour: 'answer', value: 'again' })).toMatchObject({ value: 'again' });
  });

  it('stops an engine that reaches its heap limit and says so in a sentence for the customer', async () => {
    const { error } = await outcome({ behaviour: 'allocate' }, { maxHeapMb: 64 });
    expect(error).toBeInstanceOf(UnprocessableFileError);
    expect(error?.message).toMatch(/^Testing stopped: the file needs more than 64 MB of memory to test\. Simplify it/);
  });

  it('passes on an UnprocessableFileError with its message', async () => {
    const { error } = await outcome({ behaviour: 'refuse', message: 'The file is not a PDF.' });
    expect(error).toBeInstanceOf(UnprocessableFileError);
    expect(error?.message).toBe('The file is not a PDF.');
  });

  it('passes on any other error under its own name, so it is reported as unexpected', async () => {
    const { error } = await outcome({ behaviour: 'bug' });
    expect(error).not.toBeInstanceOf(UnprocessableFileError);
    expect(error?.name).toBe('TypeError');
  });

  it('reports a thread killed by an exception outside the engine under that exception’s name', async () => {
    const { error } = await outcome({ behaviour: 'crash-later' });
    expect(error).not.toBeInstanceOf(UnprocessableFileError);
    expect(error?.name).toBe('RangeError');
  });

  it('reports an answer that cannot leave the thread as an error instead of hanging', async () => {
    const { error } = await outcome({ behaviour: 'unclonable' });
    expect(error?.name).toBe('DataCloneError');
  });
});

describe('a process that used a guarded engine', () => {
  it('exits when its work is done: warm threads do not keep it alive', () => {
    const script = `
      const { testEngineGuarded } = await import(${JSON.stringify(repoPath('test/unit/engine/guard/test-engine.ts'))});
      console.log(JSON.stringify(await testEngineGuarded({ behaviour: 'answer', value: 'done' })));
    `;
    const out = execFileSync(repoPath('node_modules/.bin/tsx'), ['--eval', script, '--input-type=module'], { encoding: 'utf8', timeout: 30_000, cwd: repoPath('.') });
    expect(JSON.parse(out)).toMatchObject({ value: 'done', isMainThread: false });
  });
});
