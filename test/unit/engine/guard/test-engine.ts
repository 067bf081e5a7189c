/**
 * An engine for the guard's specifications: each input names a behaviour a real
 * engine could show on a hostile file (spin, allocate without end, refuse the
 * file, fail with a bug). It is guarded exactly as preflight is, so its thread
 * starts from this module through thread-bootstrap.mjs.
 */
import { isMainThread, threadId } from 'node:worker_threads';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { guardedEngine } from '../../../../lambdas/engine/guard/guarded-engine';
import { decodeLimits } from '../../../../lambdas/engine/core/stream-decode';
import { engineDeadline } from '../../../../lambdas/engine/guard/engine-deadline';

export type TestEngineInput =
  | { behaviour: 'answer'; value: unknown }
  | { behaviour: 'spin' }
  | { behaviour: 'allocate' }
  | { behaviour: 'refuse'; message: string }
  | { behaviour: 'bug' }
  | { behaviour: 'crash-later' }
  | { behaviour: 'unclonable' };

async function testEngine(input: TestEngineInput): Promise<unknown> {
  switch (input.behaviour) {
    case 'answer':
      return { value: input.value, isMainThread, threadId, decodeLimits: decodeLimits(), deadline: engineDeadline() };
    case 'spin':
      for (;;);
    case 'allocate': {
      const hoard: number[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i * 1.5));
    }
    case 'refuse':
      throw new UnprocessableFileError(input.message);
    case 'bug':
      return (undefined as unknown as { property: string }).property;
    case 'crash-later':
      // An exception outside the engine's promise: the thread dies of it.
      setTimeout(() => {
        throw new RangeError('escaped the engine');
      }, 0);
      return new Promise(() => {});
    case 'unclonable':
      return { fn: () => 1 };
  }
}

export const testEngineGuarded = guardedEngine({
  name: 'test-engine',
  label: 'Testing',
  task: 'test',
  moduleUrl: import.meta.url,
  run: testEngine,
  defaults: () => ({ timeoutMs: 30_000, maxHeapMb: 256, maxStreamDecodedMb: 256, maxDocumentDecodedMb: 4096 }),
});
