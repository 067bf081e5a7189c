/**
 * The request units DynamoDB bills that dynalite does not report (it returns
 * ConsumedCapacity for the table only, and none for a failed conditional
 * write), computed from item sizes the way DynamoDB does. Items are in the
 * wire format (`{ "pk": { "S": "…" } }`); their size is dynalite's own
 * DynamoDB item-size rule, so these units agree with the ones dynalite reports.
 *
 * Global secondary index writes (Developer Guide, "Provisioned throughput
 * considerations for Global Secondary Indexes", GSI.html#GSI.Writes), for an
 * index projecting ALL attributes, per item written to the table:
 * - the item is in the index neither before nor after: nothing;
 * - it enters the index (a new item, or its index keys newly defined): one
 *   write of the new entry;
 * - it leaves the index (deleted, or an index key removed): one write of the
 *   old entry;
 * - an index key changes value: two writes, the old entry deleted and the new
 *   one put;
 * - otherwise, a projected attribute changed: one write of the new entry.
 * A write is ceil(entry size / 1 KB) units.
 *
 * A conditional write whose condition fails still consumes write units, by
 * the same size rule as the write would have (the larger of the existing and
 * the new item, at least one unit).
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

export type WireItem = Record<string, unknown>;

export interface IndexKeys {
  partitionKey: string;
  sortKey?: string;
  /**
   * The attributes the index holds besides its keys, for KEYS_ONLY or INCLUDE projections (the
   * table's own keys included); absent for ALL. Only they are written to the index, and a write
   * that changes none of them writes nothing there.
   */
  projected?: readonly string[];
}

const dynaliteDb = createRequire(import.meta.url)('dynalite/db') as { itemSize(item: WireItem): number };

/** DynamoDB's size of an item in bytes (attribute names plus values). */
export const itemSize = (item: WireItem): number => dynaliteDb.itemSize(item);

/** Write units for writing (or deleting) this item: one per started KB, at least one. */
export const writeUnitsOf = (item: WireItem | undefined): number => (item ? Math.max(1, Math.ceil(itemSize(item) / 1024)) : 1);

const inIndex = (item: WireItem | undefined, index: IndexKeys): item is WireItem =>
  item !== undefined && index.partitionKey in item && (index.sortKey === undefined || index.sortKey in item);

const indexKeyOf = (item: WireItem, index: IndexKeys) => [item[index.partitionKey], index.sortKey === undefined ? undefined : item[index.sortKey]];

/** The item as the index holds it. */
function projectedOf(item: WireItem | undefined, index: IndexKeys): WireItem | undefined {
  if (!item || !index.projected) return item;
  const keep = new Set([index.partitionKey, ...(index.sortKey ? [index.sortKey] : []), ...index.projected]);
  return Object.fromEntries(Object.entries(item).filter(([name]) => keep.has(name))) as WireItem;
}

/** Units one table write costs in one global secondary index. */
export function indexWriteUnits(tableBefore: WireItem | undefined, tableAfter: WireItem | undefined, index: IndexKeys): number {
  const before = projectedOf(tableBefore, index);
  const after = projectedOf(tableAfter, index);
  const was = inIndex(before, index);
  const is = inIndex(after, index);
  if (!was && !is) return 0;
  if (!was) return writeUnitsOf(after);
  if (!is) return writeUnitsOf(before);
  if (!isDeepStrictEqual(indexKeyOf(before, index), indexKeyOf(after, index))) return writeUnitsOf(before) + writeUnitsOf(after);
  return isDeepStrictEqual(before, after) ? 0 : writeUnitsOf(after);
}

/** Units a write refused by its condition consumes: as the write would have, by the larger item. */
export function failedConditionUnits(existing: WireItem | undefined, proposed: WireItem | undefined): number {
  return Math.max(writeUnitsOf(existing), proposed ? writeUnitsOf(proposed) : 1);
}
