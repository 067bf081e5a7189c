/**
 * A thread that reads through a SharedSource, as a render thread does: for
 * each message { offset, length } it answers with the bytes read, or with the
 * error's name and message. Started by shared-source.test.ts through the engine
 * threads' bootstrap (thread-bootstrap.mjs), so it runs as TypeScript.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SharedSource } from '../../../../../../lambdas/engine/core/reader/shared-source';

const { channel, size } = workerData as { channel: SharedArrayBuffer; size: number };
let source = new SharedSource(channel, size);

parentPort!.on('message', (ask: { offset: number; length: number } | 'failure' | 'reopen') => {
  if (ask === 'reopen') {
    // The next document over the same channel, as a render thread kept warm opens it.
    source.close();
    source = new SharedSource(channel, size);
    parentPort!.postMessage('reopened');
    return;
  }
  if (ask === 'failure') {
    parentPort!.postMessage({ failure: source.failure?.message ?? null });
    return;
  }
  try {
    parentPort!.postMessage({ bytes: Buffer.from(source.read(ask.offset, ask.length)) });
  } catch (e) {
    parentPort!.postMessage({ error: { name: (e as Error).name, message: (e as Error).message } });
  }
});
parentPort!.postMessage('ready');
