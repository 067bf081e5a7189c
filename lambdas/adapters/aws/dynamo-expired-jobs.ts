/**
 * How the retention sweep (use-cases/expire-jobs.ts) finds expired jobs without reading the
 * table: the sparse index `expiry` (TABLE_SCHEMA.expiryIndex) holds only job items with an expiry,
 * partitioned by the UTC day of it. A sweep queries each day from the oldest that may still hold
 * an expired job up to today, today's up to `at` only. A day with nothing costs one small read, so
 * an hourly sweep reads what expired since the last one, not the whole retention period's jobs.
 *
 * How far back to start is one item (retentionSweepKey): the oldest day among the jobs a sweep
 * returned, else today. A returned job the sweep fails to delete (or never reaches: the function
 * timed out) is found again, as its day is read again; the days before hold none, as every job of
 * theirs was returned by then and no job is created with an expiry in the past. Without that item
 * (a table's first sweep) the start is the oldest day in the index, read by a Scan of the index,
 * which holds jobs with an expiry and nothing else.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { iso } from '../../domain/ids';
import { queryAll, scanAll } from './dynamo-batch';
import { ExpressionBuilder, isConditionalCheckFailed } from './dynamo-expressions';
import { expiryDay, retentionSweepKey } from './dynamo-items';
import { TABLE_SCHEMA } from './table-schema';

export interface ExpiredJob {
  id: string;
  accountId: string;
}

const { name: INDEX, partitionKey: DAY, sortKey: EXPIRES_AT } = TABLE_SCHEMA.expiryIndex;
/** The attribute of the sweep item naming its day. */
const SWEEP_START = 'startDay';
const DAY_MS = 24 * 3600 * 1000;

/** Jobs whose expiry is at or before `at`, in order of expiry; remembers where the next call starts. */
export async function findExpiredJobs(client: DynamoDBDocumentClient, tableName: string, at: Date): Promise<ExpiredJob[]> {
  const today = expiryDay(iso(at));
  const remembered = await readSweepStart(client, tableName);
  const from = remembered ?? (await oldestDayInIndex(client, tableName)) ?? today;
  const jobs: ExpiredJob[] = [];
  let oldest = today;
  for (const day of daysFrom(from, today)) {
    const x = new ExpressionBuilder();
    const items = await queryAll(client, {
      TableName: tableName,
      IndexName: INDEX,
      KeyConditionExpression: `${x.name(DAY)} = ${x.value(day)} AND ${x.name(EXPIRES_AT)} <= ${x.value(iso(at))}`,
      ...x.params(),
    });
    if (items.length > 0 && day < oldest) oldest = day;
    jobs.push(...items.map((item) => ({ id: String(item.id), accountId: String(item.accountId) })));
  }
  if (oldest !== remembered) await rememberSweepStart(client, tableName, oldest, remembered);
  return jobs;
}

/** `from`, the days after it, and `to` (`YYYY-MM-DD`); none when `from` is later. */
function* daysFrom(from: string, to: string): Generator<string> {
  for (let ms = Date.parse(`${from}T00:00:00.000Z`); ms <= Date.parse(`${to}T00:00:00.000Z`); ms += DAY_MS) yield expiryDay(new Date(ms).toISOString());
}

async function readSweepStart(client: DynamoDBDocumentClient, tableName: string): Promise<string | null> {
  const out = await client.send(new GetCommand({ TableName: tableName, Key: retentionSweepKey, ConsistentRead: true }));
  const day = out.Item?.[SWEEP_START];
  return typeof day === 'string' ? day : null;
}

/**
 * Moves the start to `day` unless another sweep moved it since this one read `remembered` (sweeps
 * do not overlap, an hour apart and at most 15 minutes long; the condition only keeps a late one
 * from undoing a later one).
 */
async function rememberSweepStart(client: DynamoDBDocumentClient, tableName: string, day: string, remembered: string | null): Promise<void> {
  const x = new ExpressionBuilder();
  const condition = remembered === null ? `attribute_not_exists(${x.name('pk')})` : `${x.name(SWEEP_START)} = ${x.value(remembered)}`;
  try {
    await client.send(
      new PutCommand({ TableName: tableName, Item: { ...retentionSweepKey, entity: 'sweep', [SWEEP_START]: day }, ConditionExpression: condition, ...x.params() }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

async function oldestDayInIndex(client: DynamoDBDocumentClient, tableName: string): Promise<string | null> {
  const items = await scanAll(client, { TableName: tableName, IndexName: INDEX, ProjectionExpression: '#day', ExpressionAttributeNames: { '#day': DAY } });
  return items.map((item) => String(item[DAY])).reduce<string | null>((oldest, day) => (oldest === null || day < oldest ? day : oldest), null);
}
