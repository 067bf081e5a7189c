/**
 * Inside one worker thread: the stand-in for one warm Lambda execution
 * environment. It loads the worker module once (the "init" phase), then runs
 * one invocation at a time as the pool sends them, reporting the handler's
 * output or its error in the shape the Lambda runtime reports. Everything it
 * needs (endpoints, table, bucket, NETWORK_MODE) comes from process.env, which
 * the runtime set before the pool started the thread.
 */
import '../lambdas/platform/polyfills';
import { parentPort, workerData } from 'node:worker_threads';
import { payloadOf } from '../lambdas/adapters/local/lambda-errors';
import type { FromThread, ToThread, ThreadData } from './worker-protocol';

type Handler = (event: unknown, context: unknown) => unknown;

const port = parentPort!;
const data = workerData as ThreadData;
const post = (message: FromThread) => port.postMessage(message);

async function init(): Promise<Handler> {
  const mod = (await import(data.entryUrl)) as { handler?: unknown; default?: { handler?: unknown } };
  const handler = mod.handler ?? mod.default?.handler;
  if (typeof handler !== 'function') throw Object.assign(new Error(`${data.entryUrl} does not export a handler function`), { name: 'Runtime.HandlerNotFound' });
  return handler as Handler;
}

function lambdaContext(requestId: string, deadline: number) {
  return {
    awsRequestId: requestId,
    functionName: data.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: data.functionArn,
    memoryLimitInMB: String(data.memoryMb),
    logGroupName: `/aws/lambda/${data.functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

try {
  const handler = await init();
  port.on('message', (message: ToThread) => {
    if (message.type !== 'invoke') return;
    const context = lambdaContext(message.requestId, message.deadline);
    Promise.resolve()
      .then(() => handler(message.input, context))
      // Like the Lambda runtime, the result crosses as JSON: undefined becomes null.
      .then((output) => post({ type: 'result', id: message.id, ok: true, output: output === undefined ? null : JSON.parse(JSON.stringify(output)) }))
      .catch((err: unknown) => post({ type: 'result', id: message.id, ok: false, error: payloadOf(err) }));
  });
  post({ type: 'ready' });
} catch (err) {
  const payload = payloadOf(err);
  // Lambda's name for a module that fails to load.
  if (payload.errorType === 'Error' || payload.errorType === 'SyntaxError') payload.errorType = 'Runtime.ImportModuleError';
  post({ type: 'init-error', error: payload });
}
