/**
 * Retention in the synthesized stack (domain/retention.ts): the API's functions give jobs their
 * expiry from the stack's period, a scheduled sweep deletes expired jobs with their files, and
 * DynamoDB's TTL on the records and the bucket's lifecycle rule on the files are the backstops
 * behind it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../lambdas/adapters/aws/provision';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import { ROUTES, routeEntry } from '../../lambdas/api/routes';
import { MAX_RETENTION_DAYS } from '../../lambdas/domain/retention';
import { RETENTION_SWEEP_ENTRY } from '../../lib/constructs/retention-sweep';
import { startDynalite } from '../support/dynalite';
import { useStandInCredentials } from '../support/s3rver';
import { synthProofline } from './support/synth';
import {
  allowedActions,
  filesBucket,
  functionIdByEntry,
  getAttId,
  resource,
  resourcesOfType,
  roleIdOfFunction,
  statementsOfRole,
} from './support/template-queries';

let template: Template;
beforeAll(() => {
  ({ template } = synthProofline());
});

const envOf = (t: Template, entry: string): Record<string, unknown> => resource(t, functionIdByEntry(t, entry)).Properties.Environment.Variables;

describe('retention', () => {
  it("gives every API function the stack's retention period, 30 days by default, and the one asked for", () => {
    const entries = [...new Set(ROUTES.map(routeEntry))];
    for (const entry of entries) expect(envOf(template, entry).RETENTION_DAYS, entry).toBe('30');
    const longer = synthProofline({ stackProps: { retentionDays: 90 } }).template;
    for (const entry of entries) expect(envOf(longer, entry).RETENTION_DAYS, entry).toBe('90');
  });

  it('refuses a period that is not whole days from 1 to 3650', () => {
    for (const retentionDays of [0, 2.5, 3651]) expect(() => synthProofline({ stackProps: { retentionDays } }), String(retentionDays)).toThrow(/retentionDays/);
  });

  it('gives the table the expiry index the sweep reads, as the local runtime provisions it in dynalite', async () => {
    const [, table] = resourcesOfType(template, 'AWS::DynamoDB::Table')[0]!;
    const deployed = (table.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).find((i) => i.IndexName === TABLE_SCHEMA.expiryIndex.name);
    expect(deployed).toBeDefined();
    useStandInCredentials();
    const dynalite = await startDynalite();
    const client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: dynalite.endpoint } });
    try {
      await provisionTable(client, 'records');
      const { Table: local } = await client.send(new DescribeTableCommand({ TableName: 'records' }));
      const localIndexes = (local?.GlobalSecondaryIndexes ?? []).map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }));
      expect(localIndexes).toEqual(table.Properties.GlobalSecondaryIndexes);
    } finally {
      client.destroy();
      await dynalite.stop();
    }
  });

  it('lets DynamoDB expire records by their TTL attribute', () => {
    const [, table] = resourcesOfType(template, 'AWS::DynamoDB::Table')[0]!;
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true });
  });

  it("lets the bucket delete any file a week after the longest period an account may have, whatever the stack's period", () => {
    for (const t of [template, synthProofline({ stackProps: { retentionDays: 7 } }).template]) {
      const [, bucket] = filesBucket(t);
      const rules = bucket.Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
      const backstop = rules.find((r) => r.Id === 'ExpireFilesPastLongestRetention');
      // No filter: job files and uploads are every key of the bucket, and no prefix is common to them.
      expect(backstop).toEqual({ Id: 'ExpireFilesPastLongestRetention', Status: 'Enabled', ExpirationInDays: MAX_RETENTION_DAYS + 7 });
      expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }));
      // Unversioned, so a deleted file leaves no noncurrent version behind for a rule to expire.
      expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    }
  });

  it('runs the sweep every hour, which may delete records and files, re-tag uploads and stop executions', () => {
    const sweepId = functionIdByEntry(template, RETENTION_SWEEP_ENTRY);
    const rules = resourcesOfType(template, 'AWS::Events::Rule').filter(([, r]) => (r.Properties.Targets as { Arn: unknown }[]).some((x) => getAttId(x.Arn) === sweepId));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe('rate(1 hour)');
    const env = envOf(template, RETENTION_SWEEP_ENTRY);
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME', 'STANDARD_STATE_MACHINE_ARN']));
    const actions = allowedActions(statementsOfRole(template, roleIdOfFunction(template, sweepId)));
    for (const action of ['dynamodb:Scan', 'dynamodb:Query', 'dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 's3:DeleteObject*', 's3:PutObjectTagging', 'states:StopExecution']) {
      expect(actions.has(action), action).toBe(true);
    }
  });
});
