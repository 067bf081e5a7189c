// Entry of every worker thread (see worker-pool.ts). Plain JavaScript because a
// thread starts without the parent's TypeScript loader: on Node 20 a Worker's
// execArgv `--import tsx` is not applied to the thread (checked on 20.20), so the
// thread registers tsx itself before importing the TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread.ts');
