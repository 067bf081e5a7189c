// Every test process starts with the Node 22 polyfills, as every entry point does.
import '../../lambdas/platform/polyfills';
import { CONCURRENCY_VARIABLE } from '../../local/invocation-scope';

// The e2e project's global setup starts the local runtime in vitest's main process, which sets
// AWS_LAMBDA_MAX_CONCURRENCY there (local/invocation-scope.ts) for its own InvokeStore; the test
// processes forked after it inherit the variable but not the store, and Powertools' logger then
// throws "InvokeStore is not available" and writes nothing. A test process that starts a runtime
// of its own sets it again with its store.
delete process.env[CONCURRENCY_VARIABLE];
