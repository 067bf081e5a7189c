/**
 * One scope per Lambda invocation for the logger, in the local runtime's main
 * thread, which runs many invocations at once (every API request, the
 * finaliser, the failure recorder, the webhook caller). In Lambda an execution
 * environment serves one invocation at a time, so the logger's per-invocation
 * state (its correlation keys, the Lambda context) can live in the module; here
 * one request's `jobId` would land on another's lines.
 *
 * Powertools keeps that state per invocation where Lambda runs several at once
 * in one process (Lambda Managed Instances): when AWS_LAMBDA_MAX_CONCURRENCY is
 * set, it reads and writes it through `globalThis.awslambda.InvokeStore`, which
 * the Lambda runtime provides and scopes to each invocation with an
 * AsyncLocalStorage. The local runtime stands in for the Lambda runtime, so it
 * provides the same: `enableInvocationScopes` installs such a store, and
 * `inInvocationScope` runs each invocation in a scope of its own. Worker
 * threads serve one invocation at a time, as Lambda does, and need none.
 *
 * The store is installed over any the AWS SDK made meanwhile (it asks for one
 * to read the trace id from, and gets none here either way).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Scope = Record<string | symbol, unknown>;

/** The Lambda runtime's names for its own fields of a scope (aws-lambda-invoke-store's PROTECTED_KEYS). */
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const X_RAY_TRACE_ID = Symbol.for('_AWS_LAMBDA_X_RAY_TRACE_ID');

/**
 * Tells Powertools (commons' shouldUseInvokeStore) to keep invocation state in
 * the store. Never in a worker thread's environment: there is no store there.
 */
export const CONCURRENCY_VARIABLE = 'AWS_LAMBDA_MAX_CONCURRENCY';

/** What Powertools and the AWS SDK call on the Lambda runtime's InvokeStore. */
class InvocationScopes {
  private readonly storage = new AsyncLocalStorage<Scope>();

  getContext(): Scope | undefined {
    return this.storage.getStore();
  }
  hasContext(): boolean {
    return this.storage.getStore() !== undefined;
  }
  get(key: string | symbol): unknown {
    return this.storage.getStore()?.[key];
  }
  set(key: string | symbol, value: unknown): void {
    const scope = this.storage.getStore();
    if (!scope) throw new Error('No invocation scope');
    scope[key] = value;
  }
  run<T>(scope: Scope, fn: () => T): T {
    return this.storage.run(scope, fn);
  }
  getRequestId(): string {
    return (this.get(REQUEST_ID) as string | undefined) ?? '-';
  }
  getXRayTraceId(): string | undefined {
    return this.get(X_RAY_TRACE_ID) as string | undefined;
  }
  getTenantId(): undefined {
    return undefined;
  }
  getTraceparent(): undefined {
    return undefined;
  }
  getTracestate(): undefined {
    return undefined;
  }
  getBaggage(): undefined {
    return undefined;
  }
}

const scopes = new InvocationScopes();

/**
 * From now on, in this process, the logger keeps each invocation's state in
 * the invocation's scope. Sets AWS_LAMBDA_MAX_CONCURRENCY in process.env (the
 * runtime puts process.env back as it was when it stops).
 */
export function enableInvocationScopes(): void {
  const global = globalThis as { awslambda?: { InvokeStore?: unknown } };
  global.awslambda ??= {};
  global.awslambda.InvokeStore = scopes;
  process.env[CONCURRENCY_VARIABLE] ??= '1000';
}

/** Runs one invocation (`requestId`) in a scope of its own. */
export function inInvocationScope<T>(requestId: string, run: () => T): T {
  return scopes.run({ [REQUEST_ID]: requestId }, run);
}
