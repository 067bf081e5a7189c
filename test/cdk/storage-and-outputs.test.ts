import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import { UPLOAD_OBJECT_TAG } from '../../lambdas/domain/blob-keys';
import { synthProofline } from './support/synth';
import { filesBucket, getAttId, refId, resourcesOfType, type CfnResource } from './support/template-queries';

let template: Template;
let bucket: [string, CfnResource];
let table: [string, CfnResource];

beforeAll(() => {
  ({ template } = synthProofline());
  bucket = filesBucket(template);
  table = resourcesOfType(template, 'AWS::DynamoDB::Table')[0]!;
});

describe('the files bucket', () => {
  it('is private, encrypted and owned by the bucket owner', () => {
    expect(bucket[1].Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket[1].Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket[1].Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
  });

  it('refuses every request that is not over TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket[0] },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('expires unused uploads by their tag, whatever account prefix they sit under', () => {
    const rules = bucket[1].Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toContainEqual(
      expect.objectContaining({
        Status: 'Enabled',
        TagFilters: [{ Key: UPLOAD_OBJECT_TAG.key, Value: UPLOAD_OBJECT_TAG.value }],
        ExpirationInDays: 3,
      }),
    );
    // No rule may expire by prefix: job files share the account prefix with uploads. The one expiry
    // without a tag is retention's backstop for the whole bucket (retention.test.ts).
    expect(rules.filter((r) => r.Prefix !== undefined || r.Filter !== undefined)).toEqual([]);
    expect(rules.filter((r) => r.ExpirationInDays !== undefined && r.TagFilters === undefined).map((r) => r.Id)).toEqual(['ExpireFilesPastLongestRetention']);
  });

  it('is kept when the stack is deleted, by default', () => {
    expect(bucket[1].DeletionPolicy).toBe('Retain');
  });

  it('lets the console served by the stack’s distribution upload from a browser, and no other origin unless configured', () => {
    // Not the distribution's exact domain: the distribution's CSP names this bucket, and CloudFormation
    // refuses the cycle (lib/proofline-stack.ts says why a CloudFront wildcard is safe here).
    const rules = bucket[1].Properties.CorsConfiguration.CorsRules as Record<string, unknown>[];
    expect(rules).toEqual([expect.objectContaining({ Id: 'ConsoleUploads', AllowedOrigins: ['https://*.cloudfront.net'], AllowedMethods: expect.arrayContaining(['POST', 'GET', 'HEAD']) })]);
    const withCors = synthProofline({ stackProps: { corsAllowedOrigins: ['https://shop.example'] } }).template;
    withCors.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: Match.arrayWith([Match.objectLike({ AllowedOrigins: ['https://shop.example'], AllowedMethods: Match.arrayWith(['POST', 'GET']) })]),
      },
    });
  });

  it("lets a console on a custom origin alone upload with presigned POSTs from a browser (never *)", () => {
    const console = 'https://console.shop.example';
    const { template: withConsole } = synthProofline({ stackProps: { consoleOrigin: console } });
    const [, files] = filesBucket(withConsole);
    const rules = files.Properties.CorsConfiguration.CorsRules as Record<string, unknown>[];
    expect(rules).toEqual([
      expect.objectContaining({ Id: 'ConsoleUploads', AllowedOrigins: [console], AllowedMethods: expect.arrayContaining(['POST', 'GET', 'HEAD']) }),
    ]);
    expect(rules.flatMap((r) => r.AllowedOrigins as string[])).not.toContain('*');
  });

  it('keeps the console rule beside the configured browser origins', () => {
    const { template: both } = synthProofline({ stackProps: { consoleOrigin: 'https://console.shop.example', corsAllowedOrigins: ['https://shop.example'] } });
    const rules = filesBucket(both)[1].Properties.CorsConfiguration.CorsRules as { AllowedOrigins: string[] }[];
    expect(rules.map((r) => r.AllowedOrigins)).toEqual([['https://shop.example'], ['https://console.shop.example']]);
  });
});

describe('the records table', () => {
  it('has the shared key schema, the gsi1 index projecting everything, the expiry index projecting what a sweep needs and the unfinished index its keys only', () => {
    const p = table[1].Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ]);
    expect(p.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: TABLE_SCHEMA.gsi1.name,
        KeySchema: [
          { AttributeName: TABLE_SCHEMA.gsi1.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.gsi1.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        IndexName: TABLE_SCHEMA.expiryIndex.name,
        KeySchema: [
          { AttributeName: TABLE_SCHEMA.expiryIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.expiryIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['id', 'accountId'] },
      },
      {
        IndexName: TABLE_SCHEMA.unfinishedIndex.name,
        KeySchema: [
          { AttributeName: TABLE_SCHEMA.unfinishedIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.unfinishedIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
  });

  it('bills per request, recovers to a point in time and expires items by their TTL attribute', () => {
    const p = table[1].Properties;
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true });
  });

  it('is kept when the stack is deleted, by default, and destroyed with the bucket when asked', () => {
    expect(table[1].DeletionPolicy).toBe('Retain');
    const disposable = synthProofline({ stackProps: { retainData: false } }).template;
    expect(resourcesOfType(disposable, 'AWS::DynamoDB::Table')[0]![1].DeletionPolicy).toBe('Delete');
    expect(filesBucket(disposable)[1].DeletionPolicy).toBe('Delete');
  });
});

describe('stack outputs', () => {
  it('name everything the keys CLI and the e2e suite look up', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'BucketName', 'StateMachineArn', 'EventBusName']));
    expect(refId(outputs.TableName!.Value)).toBe(table[0]);
    expect(refId(outputs.BucketName!.Value)).toBe(bucket[0]);
    const [pipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineJobPipeline'))!;
    expect(refId(outputs.StateMachineArn!.Value)).toBe(pipelineId);
    const [busId] = resourcesOfType(template, 'AWS::Events::EventBus')[0]!;
    expect(refId(outputs.EventBusName!.Value) ?? getAttId(outputs.EventBusName!.Value)).toBe(busId);
    const [apiId] = resourcesOfType(template, 'AWS::ApiGateway::RestApi')[0]!;
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain(`"${apiId}"`);
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain('.execute-api.');
  });
});
