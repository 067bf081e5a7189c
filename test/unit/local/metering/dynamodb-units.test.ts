import { describe, expect, it } from 'vitest';
import { failedConditionUnits, indexWriteUnits, itemSize, writeUnitsOf } from '../../../../local/metering/dynamodb-units';

const gsi = { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' };
const job = (extra: Record<string, unknown> = {}) => ({ pk: { S: 'JOB#1' }, sk: { S: 'JOB' }, gsi1pk: { S: 'ACCOUNT#a' }, gsi1sk: { S: '2026-01-01' }, ...extra });
/** An attribute of about n bytes. */
const bytes = (n: number) => ({ S: 'x'.repeat(n) });

describe('DynamoDB item sizes and write units', () => {
  it('sizes an item as its attribute names plus values', () => {
    expect(itemSize({ pk: { S: 'abc' } })).toBe(5);
  });

  it('bills a write per started KB, at least one unit', () => {
    expect(writeUnitsOf({ pk: { S: 'a' } })).toBe(1);
    expect(writeUnitsOf({ pk: { S: 'a' }, d: bytes(1024) })).toBe(2);
    expect(writeUnitsOf({ pk: { S: 'a' }, d: bytes(3000) })).toBe(3);
    expect(writeUnitsOf(undefined)).toBe(1);
  });
});

describe('writes into a global secondary index (projection ALL)', () => {
  it('costs nothing for an item that is in the index neither before nor after', () => {
    expect(indexWriteUnits(undefined, { pk: { S: 'IDEM#1' }, sk: { S: 'IDEM' } }, gsi)).toBe(0);
  });

  it('costs one write of the new entry for an item entering the index', () => {
    expect(indexWriteUnits(undefined, job(), gsi)).toBe(1);
    expect(indexWriteUnits(undefined, job({ d: bytes(1500) }), gsi)).toBe(2);
  });

  it('costs one write of the old entry for an item leaving it', () => {
    expect(indexWriteUnits(job({ d: bytes(1500) }), undefined, gsi)).toBe(2);
  });

  it('costs two writes when an index key changes', () => {
    expect(indexWriteUnits(job(), job({ gsi1sk: { S: '2026-02-02' } }), gsi)).toBe(2);
  });

  it('costs one write when only a projected attribute changes, none when nothing does', () => {
    expect(indexWriteUnits(job({ status: { S: 'running' } }), job({ status: { S: 'done' } }), gsi)).toBe(1);
    expect(indexWriteUnits(job(), job(), gsi)).toBe(0);
  });
});

describe('writes into a sparse index holding keys only (KEYS_ONLY, INCLUDE)', () => {
  const unfinished = { partitionKey: 'unfinished', sortKey: 'id', projected: ['pk', 'sk'] };
  const running = (extra: Record<string, unknown> = {}) => job({ id: { S: 'job_1' }, unfinished: { S: 'job' }, d: bytes(3000), ...extra });

  it('costs one small write as the item enters and as it leaves, whatever the item\'s size', () => {
    expect(indexWriteUnits(undefined, running(), unfinished)).toBe(1);
    const finished = job({ id: { S: 'job_1' }, d: bytes(3000) });
    expect(indexWriteUnits(running(), finished, unfinished)).toBe(1);
  });

  it('costs nothing for a write that changes none of what the index holds', () => {
    expect(indexWriteUnits(running({ status: { S: 'pending' } }), running({ status: { S: 'running' } }), unfinished)).toBe(0);
  });
});

describe('a conditional write refused by its condition', () => {
  it('still consumes the units of the larger of the existing and proposed item', () => {
    expect(failedConditionUnits(undefined, undefined)).toBe(1);
    expect(failedConditionUnits(job({ d: bytes(2500) }), job())).toBe(3);
    expect(failedConditionUnits(job(), job({ d: bytes(1500) }))).toBe(2);
  });
});
