import { describe, expect, it } from 'vitest';
import { costModel, expressGbSeconds, lambdaGbSeconds, storageGbMonths } from '../../../../local/metering/cost-model';
import { createMeter } from '../../../../local/metering/meter';
import * as P from '../../../../local/metering/prices';

describe('Express execution duration', () => {
  it('is billed at the 64 MB minimum in steps of 100 ms, rounded up', () => {
    expect(expressGbSeconds(1)).toBeCloseTo((64 / 1024) * 0.1, 12);
    expect(expressGbSeconds(100)).toBeCloseTo((64 / 1024) * 0.1, 12);
    expect(expressGbSeconds(101)).toBeCloseTo((64 / 1024) * 0.2, 12);
    expect(expressGbSeconds(700)).toBeCloseTo((64 / 1024) * 0.7, 12);
  });

  it('bills memory in 64 MB steps, rounded up', () => {
    expect(expressGbSeconds(1000, 65)).toBeCloseTo((128 / 1024) * 1, 12);
    expect(expressGbSeconds(1000, 128)).toBeCloseTo((128 / 1024) * 1, 12);
  });
});

describe('Lambda duration', () => {
  it('is the function memory times the duration rounded up to the millisecond', () => {
    expect(lambdaGbSeconds(0.2, 1024)).toBeCloseTo(0.001, 12);
    expect(lambdaGbSeconds(418.3, 3008)).toBeCloseTo((3008 / 1024) * 0.419, 12);
    expect(lambdaGbSeconds(1000, 512)).toBeCloseTo(0.5, 12);
  });
});

describe('S3 storage', () => {
  it('is GB-months of 30 days, GB of 2^30 bytes', () => {
    expect(storageGbMonths(1024 ** 3, 30)).toBe(1);
    expect(storageGbMonths(1024 ** 3, 15)).toBe(0.5);
  });
});

describe('the cost of a job kind per 1,000 jobs', () => {
  // Two runs of a job: everything counted twice, so per job it is half.
  const meter = createMeter();
  for (let run = 0; run < 2; run++) {
    meter.executionEnded({ kind: 'express', stateTransitions: 8, durationMs: 650 });
    meter.lambdaInvoked({ functionName: 'Preflight', memoryMb: 2048, durationMs: 500 });
    meter.lambdaInvoked({ functionName: 'get-job', memoryMb: 512, durationMs: 49.2 });
    meter.apiRequest();
    meter.apiRequest();
    meter.dynamodbConsumed({ readUnits: 1.5, writeUnits: 0 });
    meter.dynamodbConsumed({ readUnits: 0, writeUnits: 4 });
    meter.s3Request('tier1');
    meter.s3Request('tier2');
    meter.s3Request('tier2');
    meter.s3Request('delete');
    meter.eventPublished();
  }
  const model = costModel({ usage: meter.usage(), runs: 2, storedBytesPerJob: 1024 ** 2, retentionDays: 30, logBytesPerJob: 2048 });
  const row = (item: string) => model.lines.find((l) => l.item.startsWith(item))!;

  it('averages the counts over the runs', () => {
    expect(row('Express requests').count).toBe(1);
    expect(row('requests').count).toBe(2); // Lambda
    expect(model.lines.find((l) => l.service === 'API Gateway REST')!.count).toBe(2);
    expect(row('write request units').count).toBe(4);
    expect(row('read request units').count).toBe(1.5);
    expect(row('PUT, COPY').count).toBe(1);
    expect(row('GET, HEAD').count).toBe(2);
    expect(row('DELETE').count).toBe(1);
    expect(row('custom events').count).toBe(1);
  });

  it('prices each row as count × unit price × 1,000', () => {
    expect(row('Express requests').perThousandJobs).toBeCloseTo(1000 * P.SFN_EXPRESS_PER_REQUEST, 12);
    expect(row('Express duration').perThousandJobs).toBeCloseTo(1000 * (64 / 1024) * 0.7 * P.SFN_EXPRESS_PER_GB_SECOND, 12);
    expect(row('duration').count).toBeCloseTo(2 * 0.5 + 0.5 * 0.05, 12);
    expect(row('write request units').perThousandJobs).toBeCloseTo(4 * 1000 * P.DYNAMODB_PER_WRITE_UNIT, 12);
    expect(row('PUT, COPY').perThousandJobs).toBeCloseTo(1000 * P.S3_PER_TIER1_REQUEST, 12);
    expect(row('GET, HEAD').perThousandJobs).toBeCloseTo(2 * 1000 * P.S3_PER_TIER2_REQUEST, 12);
    expect(row('DELETE').perThousandJobs).toBe(0);
    expect(row('storage').count).toBeCloseTo(1 / 1024, 12);
    expect(row('ingestion').count).toBeCloseTo(2048 / 1024 ** 3, 15);
    expect(model.total).toBeCloseTo(model.lines.reduce((s, l) => s + (l.perThousandJobs ?? 0), 0), 12);
  });

  it('compares with every execution in a Standard machine: transitions instead of Express requests and duration', () => {
    const express = row('Express requests').perThousandJobs! + row('Express duration').perThousandJobs!;
    expect(model.allStandardTotal).toBeCloseTo(model.total - express + 8 * 1000 * P.SFN_STANDARD_PER_TRANSITION, 12);
  });

  it('says "not measured" for the logs rather than guessing when they were not captured', () => {
    const unmeasured = costModel({ usage: meter.usage(), runs: 2, storedBytesPerJob: 0, retentionDays: 30, logBytesPerJob: null });
    const logs = unmeasured.lines.find((l) => l.service === 'CloudWatch Logs')!;
    expect(logs.perThousandJobs).toBeNull();
    expect(logs.note).toBe('not measured');
  });
});
