/**
 * GET /jobs over the account index: newest first, filtered, paged by an opaque
 * cursor. The cursor is the id of the last job returned (base64url), not
 * DynamoDB's LastEvaluatedKey: DynamoDB applies Limit before filters, so a page
 * is assembled from as many index reads as it takes, and the next page resumes
 * strictly below the last job the client actually saw — pages never skip or
 * repeat a job whatever the filters, and a cursor stays valid when the filters
 * or createdBefore bound change between pages.
 */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JobListPage, JobListQuery } from '../../domain/ports';
import { ApiError } from '../../domain/errors';
import { idLowerBound, idUpperBound, isId } from '../../domain/ids';
import { TABLE_SCHEMA } from './table-schema';
import { ExpressionBuilder } from './dynamo-expressions';
import { accountJobsPartition, itemToJob, type Item } from './dynamo-items';

export const MIN_LIST_LIMIT = 1;
export const MAX_LIST_LIMIT = 100;
/** Index items read per request while filters are active (few match, so read generously). */
const FILTERED_READ_SIZE = 100;
/** The largest ULID timestamp (48 bits). */
const MAX_ULID_MS = 2 ** 48 - 1;

export function encodeListCursor(jobId: string): string {
  return Buffer.from(jobId, 'utf8').toString('base64url');
}

/** The job id a cursor encodes; a cursor this store did not issue is a 400 on `nextKey`. */
export function decodeListCursor(cursor: string): string {
  const jobId = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!isId('job', jobId)) throw new ApiError('validation_error', 'nextKey is not a cursor returned by a previous page', 'nextKey');
  return jobId;
}

function boundMs(value: string, param: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ApiError('validation_error', `${param} must be an ISO 8601 timestamp`, param);
  return Math.min(Math.max(ms, 0), MAX_ULID_MS);
}

interface SortKeyRange {
  lower?: string;
  upper?: string;
  /** The cursor's job id when it is the upper bound, which is then exclusive. */
  exclusiveUpper?: string;
}

function sortKeyRange(query: JobListQuery): SortKeyRange | 'empty' {
  const range: SortKeyRange = {};
  if (query.createdAfter) range.lower = idLowerBound('job', boundMs(query.createdAfter, 'createdAfter'));
  if (query.createdBefore) range.upper = idUpperBound('job', boundMs(query.createdBefore, 'createdBefore'));
  if (query.cursor !== undefined) {
    const after = decodeListCursor(query.cursor);
    if (range.upper === undefined || after <= range.upper) {
      range.upper = after;
      range.exclusiveUpper = after;
    }
  }
  if (range.lower !== undefined && range.upper !== undefined && range.lower > range.upper) return 'empty';
  return range;
}

function keyCondition(x: ExpressionBuilder, accountId: string, range: SortKeyRange): string {
  const pk = `${x.name(TABLE_SCHEMA.gsi1.partitionKey)} = ${x.value(accountJobsPartition(accountId))}`;
  const sk = () => x.name(TABLE_SCHEMA.gsi1.sortKey);
  if (range.lower !== undefined && range.upper !== undefined) {
    // BETWEEN is inclusive; an exclusive cursor bound is dropped from the results.
    return `${pk} AND ${sk()} BETWEEN ${x.value(range.lower)} AND ${x.value(range.upper)}`;
  }
  if (range.upper !== undefined) return `${pk} AND ${sk()} ${range.exclusiveUpper ? '<' : '<='} ${x.value(range.upper)}`;
  if (range.lower !== undefined) return `${pk} AND ${sk()} >= ${x.value(range.lower)}`;
  return pk;
}

function filterExpression(x: ExpressionBuilder, query: JobListQuery): string | undefined {
  const equalities: [string, unknown][] = [
    ['status', query.status],
    ['outcome', query.outcome],
    ['channel', query.channel],
    ['orderId', query.orderId],
    ['customerId', query.customerId],
  ];
  const parts = equalities.filter(([, v]) => v !== undefined).map(([field, v]) => `${x.name(field)} = ${x.value(v)}`);
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

export function clampListLimit(limit: number): number {
  if (!Number.isFinite(limit)) return 20;
  return Math.min(MAX_LIST_LIMIT, Math.max(MIN_LIST_LIMIT, Math.trunc(limit)));
}

export async function listJobsPage(client: DynamoDBDocumentClient, tableName: string, query: JobListQuery): Promise<JobListPage> {
  const limit = clampListLimit(query.limit);
  const range = sortKeyRange(query);
  if (range === 'empty') return { jobs: [], nextCursor: null };

  const x = new ExpressionBuilder();
  const keyConditionExpression = keyCondition(x, query.accountId, range);
  const filter = filterExpression(x, query);
  // One more than the page, to know whether a next page exists without
  // handing out a cursor that leads to an empty page.
  const wanted = limit + 1;
  const collected: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: TABLE_SCHEMA.gsi1.name,
        KeyConditionExpression: keyConditionExpression,
        ...(filter ? { FilterExpression: filter } : {}),
        ...x.params(),
        ScanIndexForward: false,
        // +1 leaves room for the cursor's own job, which BETWEEN includes.
        Limit: filter ? FILTERED_READ_SIZE : wanted - collected.length + 1,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of (out.Items ?? []) as Item[]) {
      if (range.exclusiveUpper !== undefined && item[TABLE_SCHEMA.gsi1.sortKey] === range.exclusiveUpper) continue;
      collected.push(item);
      if (collected.length === wanted) break;
    }
    startKey = out.LastEvaluatedKey;
  } while (collected.length < wanted && startKey);

  const jobs = collected.slice(0, limit).map(itemToJob);
  const last = jobs.at(-1);
  return { jobs, nextCursor: collected.length > limit && last ? encodeListCursor(last.id) : null };
}
