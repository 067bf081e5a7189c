/**
 * A counting proxy in front of dynalite: the runtime's DynamoDB endpoint
 * (DYNAMODB_ENDPOINT, which the worker threads read too) points here while
 * metering is on, so every request from every thread passes through it.
 *
 * Per request it asks dynalite for the request units consumed
 * (`ReturnConsumedCapacity: "TOTAL"` added to the operations that take it,
 * when the caller did not ask), forwards the request and hands the caller
 * dynalite's answer byte for byte (its x-amz-crc32 checksum stays valid; the
 * caller ignores the ConsumedCapacity it did not ask for). dynalite reports
 * units for GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan,
 * BatchGetItem and BatchWriteItem; the service uses no transactions.
 *
 * What dynalite does not report is computed (dynamodb-units.ts): the writes
 * into the global secondary index, from the item before and after each write
 * (read here with consistent GetItems straight from dynalite, not counted),
 * and the units of writes refused by their condition. Two writes of one item
 * at the same moment could see each other's item; the cost model accepts that.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { failedConditionUnits, indexWriteUnits, type IndexKeys, type WireItem } from './dynamodb-units';
import { componentLog, type ComponentLog } from '../../lambdas/observability/logger';

export interface DynamoDbMeterOptions {
  /** dynalite's endpoint. */
  upstream: string;
  /** The table's key attributes, to read an item before and after it is written. */
  tableKeys: IndexKeys;
  /** Its global secondary indexes (projection ALL). */
  indexes: readonly IndexKeys[];
  consumed(units: { readUnits: number; writeUnits: number }): void;
  log?: ComponentLog;
}

export interface DynamoDbMeter {
  endpoint: string;
  close(): Promise<void>;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

interface Written {
  table: string;
  key: WireItem;
  /** The item a put proposes (absent for updates and deletes). */
  proposed?: WireItem;
  deleted: boolean;
}

export async function startDynamoDbMeter(opts: DynamoDbMeterOptions): Promise<DynamoDbMeter> {
  const upstream = new URL(opts.upstream);
  const agent = new http.Agent({ keepAlive: true });
  const log = opts.log ?? componentLog('dynamodb-meter');

  function send(headers: http.IncomingHttpHeaders, method: string, path: string, body: Buffer): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: upstream.hostname, port: upstream.port, method, path, agent, headers: { ...headers, host: upstream.host, 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** The item as it is now, read consistently from dynalite (not counted: the meter's own read). */
  async function currentItem(headers: http.IncomingHttpHeaders, table: string, key: WireItem): Promise<WireItem | undefined> {
    const body = Buffer.from(JSON.stringify({ TableName: table, Key: key, ConsistentRead: true }));
    const res = await send({ ...headers, 'x-amz-target': 'DynamoDB_20120810.GetItem' }, 'POST', '/', body);
    if (res.status !== 200) return undefined;
    return (JSON.parse(res.body.toString('utf8')) as { Item?: WireItem }).Item;
  }

  const keyOf = (item: WireItem): WireItem =>
    Object.fromEntries([opts.tableKeys.partitionKey, opts.tableKeys.sortKey].filter((k): k is string => k !== undefined).map((k) => [k, item[k]]));

  function writtenItems(operation: string, request: Record<string, any>): Written[] {
    switch (operation) {
      case 'PutItem':
        return [{ table: request.TableName, key: keyOf(request.Item), proposed: request.Item, deleted: false }];
      case 'UpdateItem':
        return [{ table: request.TableName, key: request.Key, deleted: false }];
      case 'DeleteItem':
        return [{ table: request.TableName, key: request.Key, deleted: true }];
      case 'BatchWriteItem':
        return Object.entries(request.RequestItems ?? {}).flatMap(([table, requests]) =>
          (requests as Record<string, any>[]).map((r) =>
            r.PutRequest ? { table, key: keyOf(r.PutRequest.Item), proposed: r.PutRequest.Item, deleted: false } : { table, key: r.DeleteRequest.Key, deleted: true },
          ),
        );
      default:
        return [];
    }
  }

  async function meter(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const counted = READS.has(operation) || WRITES.has(operation);
    let request: Record<string, any> | undefined;
    try {
      request = counted ? (JSON.parse(body.toString('utf8')) as Record<string, any>) : undefined;
    } catch {
      request = undefined;
    }
    if (!request) return send(req.headers, req.method ?? 'POST', req.url ?? '/', body);

    if (!request.ReturnConsumedCapacity || request.ReturnConsumedCapacity === 'NONE') request.ReturnConsumedCapacity = 'TOTAL';
    const written = writtenItems(operation, request);
    const before = await Promise.all(written.map((w) => currentItem(req.headers, w.table, w.key)));
    const res = await send(req.headers, req.method ?? 'POST', req.url ?? '/', Buffer.from(JSON.stringify(request)));
    const answer = JSON.parse(res.body.toString('utf8') || '{}') as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[]; __type?: string };

    if (res.status === 200) {
      const tableUnits = [answer.ConsumedCapacity ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (READS.has(operation)) {
        opts.consumed({ readUnits: tableUnits, writeUnits: 0 });
      } else {
        const after = await Promise.all(written.map((w) => (w.deleted ? undefined : currentItem(req.headers, w.table, w.key))));
        const indexUnits = written.reduce((sum, _w, i) => sum + opts.indexes.reduce((s, index) => s + indexWriteUnits(before[i], after[i], index), 0), 0);
        opts.consumed({ readUnits: 0, writeUnits: tableUnits + indexUnits });
      }
    } else if (answer.__type?.endsWith('ConditionalCheckFailedException')) {
      opts.consumed({ readUnits: 0, writeUnits: failedConditionUnits(before[0], written[0]?.proposed) });
    }
    return res;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      meter(req, Buffer.concat(chunks)).then(
        (answer) => {
          res.writeHead(answer.status, answer.rawHeaders);
          res.end(answer.body);
        },
        (err: unknown) => {
          log('dynalite did not answer', err);
          res.destroy();
        },
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
