/**
 * The DynamoDB stand-in must not keep a LevelDB iterator open per Query
 * (local/dynalite-iterators.ts; issue 16 item 8: a steady load of jobs grew
 * the local runtime's memory without end). Every iterator dynalite opens for a
 * Query or a Scan, read to its end or stopped early by a Limit, is closed
 * once the answer has been sent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionTable } from '../../../lambdas/adapters/aws';
import { dynaliteIteratorClasses } from '../../../local/dynalite-iterators';
import { S3RVER_CREDENTIALS, startDynalite } from '../../../local/standins';

const TABLE = 'iterators';

/** Counts iterators opened and closed, over every abstract-level iterator class dynalite uses. */
function countIterators() {
  const opened = new WeakSet<object>();
  const counts = { opened: 0, closed: 0 };
  const restore: (() => void)[] = [];
  for (const cls of dynaliteIteratorClasses()) {
    const proto = Object.getPrototypeOf(cls.prototype) as { close(): Promise<void>; next(): Promise<unknown> };
    for (const [name, count] of [['next', 'opened'], ['close', 'closed']] as const) {
      const original = proto[name];
      if ((original as { counted?: true }).counted) continue;
      const wrapped = function (this: object, ...args: unknown[]) {
        if (name === 'next' && !opened.has(this)) {
          opened.add(this);
          counts.opened++;
        }
        if (name === 'close' && opened.has(this)) {
          opened.delete(this);
          counts.closed++;
        }
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
      Object.assign(wrapped, { counted: true });
      proto[name] = wrapped as never;
      restore.push(() => (proto[name] = original as never));
    }
  }
  return { counts, restore: () => restore.forEach((r) => r()) };
}

describe('the DynamoDB stand-in (dynalite) on disk', () => {
  let dir: string;
  let stop: () => Promise<void>;
  let ddb: DynamoDBClient;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proofline-dynalite-'));
    const dynamo = await startDynalite({ path: join(dir, 'dynamodb') });
    stop = dynamo.stop;
    ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials: S3RVER_CREDENTIALS });
    await provisionTable(ddb, TABLE);
    for (let i = 0; i < 5; i++) {
      await ddb.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'JOB#1' }, sk: { S: `STEP#${i}` } } }));
    }
  });

  afterAll(async () => {
    ddb?.destroy();
    await stop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('closes the iterator of every Query and Scan, whether it reads to the end or stops at a Limit', async () => {
    const { counts, restore } = countIterators();
    try {
      for (let i = 0; i < 20; i++) {
        await ddb.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'JOB#1' } } }));
        await ddb.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'JOB#1' } }, Limit: 1 }));
        await ddb.send(new ScanCommand({ TableName: TABLE, Limit: 2 }));
      }
      // The streams close their iterators as they are destroyed, just after the answer.
      await new Promise((r) => setTimeout(r, 200));
      expect(counts.opened).toBeGreaterThanOrEqual(60);
      expect(counts.closed).toBe(counts.opened);
    } finally {
      restore();
    }
  });
});
