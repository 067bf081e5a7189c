/**
 * How the job store finds expired jobs for the retention sweep, against a real dynalite: through
 * the sparse expiry index, a day at a time from where the last sweep left off, never by reading
 * the table (adapters/aws/dynamo-expired-jobs.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite, type StandIn } from '../../support/dynalite';
import { useStandInCredentials } from '../../support/s3rver';
import { createDynamoDocumentClient } from '../../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../../lambdas/adapters/aws/provision';
import { createDynamoJobStore } from '../../../lambdas/adapters/aws/dynamo-job-store';
import { TABLE_SCHEMA } from '../../../lambdas/adapters/aws/table-schema';
import { ulidIdSource } from '../../../lambdas/domain/ids';
import type { JobStore } from '../../../lambdas/domain/ports';
import { makeJobGraph } from './job-fixtures';

let dynalite: StandIn;
let client: DynamoDBDocumentClient;
let store: JobStore;
let tables = 0;
const ids = ulidIdSource({ now: () => new Date('2026-11-01T00:00:00.000Z') });

/** What the store sent to DynamoDB: each request's command and the index it named, if any. */
let sent: { command: string; index?: string; day?: unknown }[] = [];

beforeAll(async () => {
  useStandInCredentials();
  dynalite = await startDynalite();
  client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: dynalite.endpoint } });
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  (client as unknown as { send: typeof send }).send = (command) => {
    const input = (command as { input: { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> } }).input;
    sent.push({ command: (command as object).constructor.name, index: input.IndexName, day: input.ExpressionAttributeValues?.[':v0'] });
    return send(command);
  };
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

// Each test a table of its own: where a sweep starts is kept in the table.
beforeEach(async () => {
  const tableName = `expired-jobs-${++tables}`;
  await provisionTable(client, tableName);
  store = createDynamoJobStore({ client, tableName, clock: { now: () => new Date() } });
  sent = [];
});

async function jobExpiringAt(expiresAt: string | null): Promise<string> {
  const graph = makeJobGraph({ ids, at: '2026-11-01T00:00:00.000Z', job: expiresAt ? { expiresAt } : {} });
  await store.createJob(graph);
  return graph.job.id;
}

const reads = () => sent.filter((s) => s.command === 'QueryCommand' || s.command === 'ScanCommand');

describe('finding expired jobs', () => {
  it('returns the jobs expired by then, in order of expiry, through the expiry index only, and none that expire later', async () => {
    const longAgo = await jobExpiringAt('2026-11-20T10:00:00.000Z');
    const lastSecondOfADay = await jobExpiringAt('2026-12-02T23:59:59.000Z');
    const earlierToday = await jobExpiringAt('2026-12-03T08:00:00.000Z');
    const laterToday = await jobExpiringAt('2026-12-03T12:00:00.000Z');
    const tomorrow = await jobExpiringAt('2026-12-04T00:00:00.000Z');
    const withoutExpiry = await jobExpiringAt(null);
    sent = [];

    const expired = await store.listExpiredJobs(new Date('2026-12-03T09:00:00.000Z'));

    expect(expired.map((j) => j.id)).toEqual([longAgo, lastSecondOfADay, earlierToday]);
    expect(expired[0]).toEqual({ id: longAgo, accountId: 'acct-a' });
    for (const id of [laterToday, tomorrow, withoutExpiry]) expect(expired.map((j) => j.id)).not.toContain(id);
    // Every read names the index: the table itself is never scanned or queried.
    expect(reads().length).toBeGreaterThan(0);
    for (const read of reads()) expect(read.index, read.command).toBe(TABLE_SCHEMA.expiryIndex.name);
  });

  it("starts a table's first sweep at the oldest day in the index, later sweeps where the last one left off", async () => {
    const first = await jobExpiringAt('2026-11-28T10:00:00.000Z');
    const second = await jobExpiringAt('2026-11-30T10:00:00.000Z');
    sent = [];
    await store.listExpiredJobs(new Date('2026-12-01T09:00:00.000Z'));
    // One scan of the index for its oldest day, then one query a day from that day to today.
    expect(reads().map((r) => r.command)).toEqual(['ScanCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand']);
    expect(reads().slice(1).map((r) => r.day)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);

    // Neither was deleted: the next sweep reads again from the oldest day it returned, and finds both.
    sent = [];
    expect((await store.listExpiredJobs(new Date('2026-12-01T10:00:00.000Z'))).map((j) => j.id)).toEqual([first, second]);
    expect(reads().map((r) => r.day)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);

    // Once the first is gone, the sweep after next starts at the second's day.
    await store.deleteJob(first);
    expect((await store.listExpiredJobs(new Date('2026-12-01T11:00:00.000Z'))).map((j) => j.id)).toEqual([second]);
    await store.deleteJob(second);
    sent = [];
    expect(await store.listExpiredJobs(new Date('2026-12-01T12:00:00.000Z'))).toEqual([]);
    expect(reads().map((r) => r.day)).toEqual(['2026-11-30', '2026-12-01']);

    // Nothing returned: from then on a sweep reads today alone, and the days to come as they come.
    sent = [];
    expect(await store.listExpiredJobs(new Date('2026-12-01T13:00:00.000Z'))).toEqual([]);
    expect(reads().map((r) => r.day)).toEqual(['2026-12-01']);
    sent = [];
    await store.listExpiredJobs(new Date('2026-12-03T13:00:00.000Z'));
    expect(reads().map((r) => r.day)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('starts at today when no job has an expiry yet', async () => {
    await jobExpiringAt(null);
    sent = [];
    expect(await store.listExpiredJobs(new Date('2026-12-01T09:00:00.000Z'))).toEqual([]);
    expect(reads().map((r) => [r.command, r.day])).toEqual([
      ['ScanCommand', undefined],
      ['QueryCommand', '2026-12-01'],
    ]);
  });
});
