/**
 * The local runtime with a meter (what `npm run cost` starts): one one-page
 * preflight job sent as a client sends it (upload, job with a webhook, one GET
 * after the webhook) is counted in every service the cost model prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeter, type MeteredUsage } from '../../../local/metering/meter';
import { startLocalRuntime, type LocalRuntime } from '../../../local/runtime';
import { JOB_KINDS, runJobAsClient, startWebhookReceiver, untilQuiet, type WebhookReceiver } from '../../bench/support/cost-jobs';

const meter = createMeter();
let runtime: LocalRuntime | undefined;
let webhook: WebhookReceiver | undefined;
let usage: MeteredUsage;
let storedBytes = 0;

beforeAll(async () => {
  webhook = await startWebhookReceiver();
  runtime = await startLocalRuntime({ port: 0, storagePort: 0, inMemory: true, quiet: true, metering: meter, log: () => {} });
  const preflight = JOB_KINDS.find((k) => k.id === 'preflight')!;
  const job = await runJobAsClient(runtime, preflight, await preflight.file(), webhook, 30_000);
  expect(job.status).toBe('done');
  await untilQuiet(runtime);
  usage = meter.usage();
  storedBytes = await meter.storedBytes!();
});

afterAll(async () => {
  await runtime?.stop();
  await webhook?.close();
});

describe('a metered local runtime', () => {
  it('counts the Lambda invocations of the route handlers, the authoriser and the workers, with memory and duration', () => {
    const names = usage.lambda.map((i) => i.functionName);
    expect(names).toEqual(expect.arrayContaining(['create-upload', 'create-preflight-job', 'get-job', 'authorizer', 'Ingest', 'Preflight', 'Finalise', 'WebhookCaller']));
    for (const i of usage.lambda) {
      expect(i.memoryMb).toBeGreaterThan(0);
      expect(i.durationMs).toBeGreaterThan(0);
    }
  });

  it('counts the API requests and the Express execution with its state transitions', () => {
    expect(usage.apiRequests).toBe(3);
    expect(usage.executions).toEqual([expect.objectContaining({ kind: 'express', stateTransitions: expect.any(Number) })]);
    expect(usage.executions[0]!.stateTransitions).toBeGreaterThan(1);
  });

  it('counts DynamoDB read and write units, S3 requests of both priced classes, the stored bytes and the event', () => {
    expect(usage.dynamodb.readUnits).toBeGreaterThan(0);
    expect(usage.dynamodb.writeUnits).toBeGreaterThan(0);
    expect(usage.s3.tier1).toBeGreaterThan(0);
    expect(usage.s3.tier2).toBeGreaterThan(0);
    expect(storedBytes).toBeGreaterThan(0);
    expect(usage.events).toBe(1);
  });
});
