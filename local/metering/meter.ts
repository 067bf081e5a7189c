/**
 * What the local runtime counts while metering is on (`npm run cost`): every
 * billable thing a job does, in the units AWS bills it by, taken where the
 * local runtime stands in for the service:
 *
 * - Lambda invocations: the worker pool and the main-thread invoker
 *   (pipeline workers), the HTTP front door (route handlers) and the gateway
 *   authoriser, each with the function's memory and how long its handler ran;
 * - API Gateway requests: the HTTP front door;
 * - Step Functions executions: the local orchestrator's and the webhook
 *   scheduler's reports (kind, state transitions, duration);
 * - DynamoDB request units: the counting proxy in front of dynalite
 *   (dynamodb-meter.ts), so the worker threads' requests are counted too;
 * - S3 requests by price class: the storage gateway, which every S3 call and
 *   presigned URL goes through;
 * - EventBridge events: the local event bus.
 *
 * The meter only adds up; prices are applied by cost-model.ts.
 */
import type { S3RequestClass } from './s3-request-class';

/** One Lambda invocation: which function, its configured memory and how long its handler ran. */
export interface LambdaInvocation {
  functionName: string;
  memoryMb: number;
  durationMs: number;
}

/** One state machine execution as Step Functions bills it. */
export interface MeteredExecution {
  kind: 'express' | 'standard';
  stateTransitions: number;
  durationMs: number;
}

export interface MeteredUsage {
  lambda: LambdaInvocation[];
  apiRequests: number;
  executions: MeteredExecution[];
  dynamodb: { readUnits: number; writeUnits: number; requests: number };
  s3: Record<S3RequestClass, number>;
  events: number;
}

export interface Meter {
  lambdaInvoked(invocation: LambdaInvocation): void;
  apiRequest(): void;
  executionEnded(execution: MeteredExecution): void;
  dynamodbConsumed(units: { readUnits: number; writeUnits: number }): void;
  s3Request(requestClass: S3RequestClass): void;
  eventPublished(): void;
  /** Everything counted since the start or the last reset. */
  usage(): MeteredUsage;
  reset(): void;
  /**
   * Bytes stored in the bucket now, read from the storage stand-in directly
   * (not through the gateway, so reading it is not counted). Set by the local
   * runtime when it starts with this meter.
   */
  storedBytes?: () => Promise<number>;
}

const emptyUsage = (): MeteredUsage => ({
  lambda: [],
  apiRequests: 0,
  executions: [],
  dynamodb: { readUnits: 0, writeUnits: 0, requests: 0 },
  s3: { tier1: 0, tier2: 0, delete: 0 },
  events: 0,
});

export function createMeter(): Meter {
  let usage = emptyUsage();
  return {
    lambdaInvoked: (invocation) => void usage.lambda.push({ ...invocation }),
    apiRequest: () => void usage.apiRequests++,
    executionEnded: (execution) => void usage.executions.push({ ...execution }),
    dynamodbConsumed({ readUnits, writeUnits }) {
      usage.dynamodb.readUnits += readUnits;
      usage.dynamodb.writeUnits += writeUnits;
      usage.dynamodb.requests++;
    },
    s3Request: (requestClass) => void usage.s3[requestClass]++,
    eventPublished: () => void usage.events++,
    usage: () => structuredClone(usage),
    reset: () => void (usage = emptyUsage()),
  };
}

/** Times a handler call and reports it as a Lambda invocation once it settles, whether it succeeded or threw. */
export async function timedInvocation<T>(
  report: ((invocation: LambdaInvocation) => void) | undefined,
  fn: { functionName: string; memoryMb: number },
  call: () => Promise<T>,
): Promise<T> {
  if (!report) return call();
  const started = performance.now();
  try {
    return await call();
  } finally {
    report({ ...fn, durationMs: performance.now() - started });
  }
}
