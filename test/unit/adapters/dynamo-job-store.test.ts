/**
 * The requests the DynamoDB job store sends: conditional transitions, the
 * write order of createJob, and how listJobs pages through the index.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoJobStore } from '../../../lambdas/adapters/aws/dynamo-job-store';
import { encodeListCursor } from '../../../lambdas/adapters/aws/dynamo-job-list';
import { jobToItem } from '../../../lambdas/adapters/aws/dynamo-items';
import { idLowerBound, idUpperBound, ulidIdSource } from '../../../lambdas/domain/ids';
import { makeJobGraph } from '../../integration/adapters/job-fixtures';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }));
const ddb = mockClient(doc);
const clock = { now: () => new Date('2026-07-29T10:15:02.000Z') };
const ids = ulidIdSource(clock);
const store = createDynamoJobStore({ client: doc, tableName: 'tbl', clock });

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/** Resolves placeholders so assertions can read an expression as written. */
function readable(expression: string | undefined, names: Record<string, string> = {}, values: Record<string, unknown> = {}): string {
  return (expression ?? '')
    .replace(/#n\d+|#\w+/g, (p) => names[p] ?? p)
    .replace(/:v\d+|:\w+/g, (p) => (p in values ? JSON.stringify(values[p]) : p));
}

beforeEach(() => ddb.reset());

describe('status transitions', () => {
  it('update the status only if the item exists and is in one of the from states, setting modifiedAt', async () => {
    ddb.on(UpdateCommand).resolves({});
    expect(await store.transitionJob('job_1', ['pending', 'running'], 'done', { outcome: 'pass', canProceed: true })).toBe(true);
    const [call] = ddb.commandCalls(UpdateCommand);
    const input = call!.args[0].input;
    expect(input.Key).toEqual({ pk: 'JOB#job_1', sk: 'JOB' });
    expect(readable(input.ConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe(
      'attribute_exists(pk) AND status IN ("pending", "running")',
    );
    expect(readable(input.UpdateExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe(
      'SET outcome = "pass", canProceed = true, modifiedAt = "2026-07-29T10:15:02.000Z", status = "done" REMOVE unfinished',
    );
    // Not terminal yet: the job stays on the unfinished index.
    await store.transitionJob('job_1', ['pending'], 'running');
    const running = ddb.commandCalls(UpdateCommand)[1]!.args[0].input;
    expect(readable(running.UpdateExpression, running.ExpressionAttributeNames, running.ExpressionAttributeValues)).not.toContain('REMOVE');
  });

  it('address tasks and steps inside the job\'s partition and set a task\'s updatedAt', async () => {
    ddb.on(UpdateCommand).resolves({});
    await store.transitionTask('job_1', 'task_1', ['pending'], 'running');
    await store.transitionStep('job_1', 'step_1', ['pending'], 'running', { started: 'x' });
    const [task, step] = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(task!.Key).toEqual({ pk: 'JOB#job_1', sk: 'TASK#task_1' });
    expect(readable(task!.UpdateExpression, task!.ExpressionAttributeNames, task!.ExpressionAttributeValues)).toContain(
      'updatedAt = "2026-07-29T10:15:02.000Z"',
    );
    expect(step!.Key).toEqual({ pk: 'JOB#job_1', sk: 'STEP#step_1' });
    expect(readable(step!.UpdateExpression, step!.ExpressionAttributeNames, step!.ExpressionAttributeValues)).toBe(
      'SET started = "x", status = "running"',
    );
  });

  it('return false when the condition fails and rethrow any other error', async () => {
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).rejectsOnce(new Error('throttled'));
    expect(await store.transitionJob('job_1', ['pending'], 'running')).toBe(false);
    await expect(store.transitionJob('job_1', ['pending'], 'running')).rejects.toThrow('throttled');
  });

  it('send nothing when no from state is given', async () => {
    expect(await store.transitionJob('job_1', [], 'running')).toBe(false);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('creating a job', () => {
  it('writes tasks and steps in batches of 25 first, retrying unprocessed items, and the job last if new', async () => {
    const sixteen = Array.from({ length: 16 }, () => 'preflight' as const);
    const graph = makeJobGraph({ ids, stepTypes: [sixteen, sixteen] }); // 2 tasks + 32 steps = 34 items
    const order: string[] = [];
    let firstBatch = true;
    ddb.on(BatchWriteCommand).callsFake((input: { RequestItems: Record<string, unknown[]> }) => {
      const items = input.RequestItems.tbl!;
      order.push(`batch:${items.length}`);
      if (firstBatch) {
        firstBatch = false;
        return { UnprocessedItems: { tbl: items.slice(0, 2) } };
      }
      return {};
    });
    ddb.on(PutCommand).callsFake(() => {
      order.push('job');
      return {};
    });
    await store.createJob(graph);
    expect(order).toEqual(['batch:25', 'batch:2', 'batch:9', 'job']);
    const put = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.Item).toMatchObject({ pk: `JOB#${graph.job.id}`, sk: 'JOB', gsi1pk: 'ACCT#acct-a', gsi1sk: graph.job.id });
    expect(readable(put.ConditionExpression, put.ExpressionAttributeNames)).toBe('attribute_not_exists(pk)');
  });
});

describe('listing jobs', () => {
  const jobItems = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => jobToItem(makeJobGraph({ ids, job: { orderId: `o-${from + i}` } }).job));

  it('reads the account index newest first and asks for one job more than the page', async () => {
    const items = jobItems(6);
    ddb.on(QueryCommand).resolves({ Items: items });
    const page = await store.listJobs({ accountId: 'acct-a', limit: 5 });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ TableName: 'tbl', IndexName: 'gsi1', ScanIndexForward: false, Limit: 7 });
    expect(readable(input.KeyConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe('gsi1pk = "ACCT#acct-a"');
    expect(input.FilterExpression).toBeUndefined();
    expect(page.jobs.map((j) => j.id)).toEqual(items.slice(0, 5).map((i) => i.id));
    expect(page.nextCursor).toBe(encodeListCursor(String(items[4]!.id)));
  });

  it('keeps querying past filtered-out reads until the page is full', async () => {
    const items = jobItems(5);
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [], LastEvaluatedKey: { pk: 'a' } })
      .resolvesOnce({ Items: items.slice(0, 2), LastEvaluatedKey: { pk: 'b' } })
      .resolvesOnce({ Items: items.slice(2), LastEvaluatedKey: { pk: 'c' } });
    const page = await store.listJobs({ accountId: 'acct-a', limit: 3, status: 'done', channel: 'store' });
    const calls = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(3);
    expect(calls[1]!.ExclusiveStartKey).toEqual({ pk: 'a' });
    expect(calls[2]!.ExclusiveStartKey).toEqual({ pk: 'b' });
    expect(readable(calls[0]!.FilterExpression, calls[0]!.ExpressionAttributeNames, calls[0]!.ExpressionAttributeValues)).toBe(
      'status = "done" AND channel = "store"',
    );
    expect(calls[0]!.Limit).toBe(100);
    expect(page.jobs.map((j) => j.id)).toEqual(items.slice(0, 3).map((i) => i.id));
    expect(page.nextCursor).toBe(encodeListCursor(String(items[2]!.id)));
  });

  it('ends with a null cursor when the index is exhausted', async () => {
    ddb.on(QueryCommand).resolves({ Items: jobItems(2) });
    expect((await store.listJobs({ accountId: 'acct-a', limit: 2 })).nextCursor).toBeNull();
  });

  it('resumes strictly below the cursor\'s job', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const after = 'job_01k0000000000000000000000a';
    await store.listJobs({ accountId: 'acct-a', limit: 5, cursor: encodeListCursor(after) });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(readable(input.KeyConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe(
      `gsi1pk = "ACCT#acct-a" AND gsi1sk < "${after}"`,
    );
  });

  it('bounds the index by creation time and drops the cursor\'s own job from an inclusive range', async () => {
    const cursorJob = jobItems(1)[0]!;
    const older = jobItems(1)[0]!;
    ddb.on(QueryCommand).resolves({ Items: [cursorJob, older] });
    const page = await store.listJobs({
      accountId: 'acct-a',
      limit: 5,
      createdAfter: '2026-01-01T00:00:00.000Z',
      cursor: encodeListCursor(String(cursorJob.id)),
    });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(readable(input.KeyConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe(
      `gsi1pk = "ACCT#acct-a" AND gsi1sk BETWEEN "${idLowerBound('job', Date.parse('2026-01-01T00:00:00.000Z'))}" AND "${cursorJob.id}"`,
    );
    expect(page.jobs.map((j) => j.id)).toEqual([older.id]);
  });

  it('uses an inclusive upper bound for createdBefore', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    await store.listJobs({ accountId: 'acct-a', limit: 5, createdBefore: '2026-02-01T00:00:00.000Z' });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(readable(input.KeyConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues)).toBe(
      `gsi1pk = "ACCT#acct-a" AND gsi1sk <= "${idUpperBound('job', Date.parse('2026-02-01T00:00:00.000Z'))}"`,
    );
  });

  it('clamps the limit to 1..100', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    await store.listJobs({ accountId: 'acct-a', limit: 1000 });
    await store.listJobs({ accountId: 'acct-a', limit: 0 });
    const limits = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.Limit);
    expect(limits).toEqual([102, 3]);
  });

  it('rejects an unparseable creation bound as a validation error on that parameter', async () => {
    await expect(store.listJobs({ accountId: 'acct-a', limit: 5, createdAfter: 'yesterday' })).rejects.toMatchObject({
      code: 'validation_error',
      param: 'createdAfter',
    });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
