/**
 * What the security review asks of logging and the edge, as synthesized: S3 server access logs of
 * both buckets and CloudFront's logs in one bucket of their own, the API stage's access and
 * execution logs on by default, and the optional WAF web ACL (context option `webAcl`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { COUNTED_COMMON_RULES, MANAGED_RULE_GROUPS } from '../../lib/constructs/api-web-acl';
import { synthProofline } from './support/synth';
import { filesBucket, refId, resourcesOfType } from './support/template-queries';

let template: Template;
let logsBucketId: string;

beforeAll(() => {
  ({ template } = synthProofline());
  [logsBucketId] = resourcesOfType(template, 'AWS::S3::Bucket').find(([id]) => id.startsWith('AccessLogs'))!;
});

describe('access logs', () => {
  it('of the files and console buckets go to the access-log bucket, each under its own prefix', () => {
    const files = filesBucket(template)[1].Properties.LoggingConfiguration;
    expect(refId(files.DestinationBucketName)).toBe(logsBucketId);
    expect(files.LogFilePrefix).toBe('files/');
    const [, consoleBucket] = resourcesOfType(template, 'AWS::S3::Bucket').find(([id]) => id.startsWith('Console'))!;
    expect(refId(consoleBucket.Properties.LoggingConfiguration.DestinationBucketName)).toBe(logsBucketId);
    expect(consoleBucket.Properties.LoggingConfiguration.LogFilePrefix).toBe('console/');
  });

  it('of the distribution go to the same bucket under cloudfront/', () => {
    const [, distribution] = resourcesOfType(template, 'AWS::CloudFront::Distribution')[0]!;
    const logging = distribution.Properties.DistributionConfig.Logging;
    expect(logging.Prefix).toBe('cloudfront/');
    expect(JSON.stringify(logging.Bucket)).toContain(logsBucketId);
  });

  it('are kept in a private, TLS-only bucket that the stack keeps by default', () => {
    const [, logs] = resourcesOfType(template, 'AWS::S3::Bucket').find(([id]) => id === logsBucketId)!;
    expect(logs.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(logs.DeletionPolicy).toBe('Retain');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logsBucketId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});

describe('the API stage', () => {
  it('writes JSON access logs and ERROR execution logs, without request or response bodies, by default', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId"') },
      MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false })]),
    });
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
  });

  it('can be deployed without them (apiAccessLogs false), for accounts whose API Gateway settings are managed elsewhere', () => {
    const { template: quiet } = synthProofline({ stackProps: { apiAccessLogs: false } });
    quiet.resourceCountIs('AWS::ApiGateway::Account', 0);
    const [, stage] = resourcesOfType(quiet, 'AWS::ApiGateway::Stage')[0]!;
    expect(stage.Properties.AccessLogSetting).toBeUndefined();
  });
});

describe('the WAF web ACL', () => {
  it('is absent unless asked for', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  describe('with webAcl', () => {
    let withAcl: Template;
    let app: ReturnType<typeof synthProofline>['app'];
    beforeAll(() => {
      ({ template: withAcl, app } = synthProofline({ stackProps: { webAcl: true, webAclRateLimit: 500 } }));
    });

    it('is a regional web ACL that allows by default, on the API stage', () => {
      withAcl.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
      const [aclId] = resourcesOfType(withAcl, 'AWS::WAFv2::WebACL')[0]!;
      const [stageId] = resourcesOfType(withAcl, 'AWS::ApiGateway::Stage')[0]!;
      const [, association] = resourcesOfType(withAcl, 'AWS::WAFv2::WebACLAssociation')[0]!;
      expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(JSON.stringify(association.Properties.ResourceArn)).toContain(stageId);
    });

    it('blocks a client address over the rate limit first, then runs the AWS managed rule groups', () => {
      const [, acl] = resourcesOfType(withAcl, 'AWS::WAFv2::WebACL')[0]!;
      const rules = acl.Properties.Rules as Record<string, any>[];
      expect(rules[0]).toMatchObject({
        Priority: 0,
        Action: { Block: {} },
        Statement: { RateBasedStatement: { Limit: 500, AggregateKeyType: 'FORWARDED_IP' } },
      });
      expect(rules.slice(1).map((r) => r.Statement.ManagedRuleGroupStatement.Name)).toEqual([...MANAGED_RULE_GROUPS]);
      expect(rules.slice(1).every((r) => r.Statement.ManagedRuleGroupStatement.VendorName === 'AWS' && r.OverrideAction.None)).toBe(true);
      const common = rules.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!;
      expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual(
        COUNTED_COMMON_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
      );
    });

    it('clears the security review’s WAF warning on the stage', () => {
      const warnings = new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName);
      expect(warnings).not.toContain('AwsSolutions-APIG3');
    });
  });
});
