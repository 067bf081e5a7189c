// Entry of an engine thread when the engine is TypeScript source (tests, the
// local runtime under tsx). A thread starts without its parent's TypeScript
// loader (see local/worker-bootstrap.mjs), so it registers tsx itself and then
// imports the module that called guardedEngine(), which starts serving because
// workerData marks this thread as its engine thread. A Lambda bundle needs no
// bootstrap: its thread starts from the bundle itself (engine-thread.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.moduleUrl);
