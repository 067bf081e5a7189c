/**
 * Acknowledging cdk-nag findings (the AwsSolutions pack, run by test/cdk/security-review.test.ts)
 * where the thing they are about is built, each with the rule, the construct it applies to and a
 * reason a reviewer can check. cdk-nag 3 reads CDK's own acknowledgements
 * (`Validations.of(construct).acknowledge`) on the flagged resource or any construct above it, and
 * matches a finding only by its exact id: `AwsSolutions-IAM5[Resource::<FilesBucket1234.Arn>/*]`.
 *
 * The lib never imports cdk-nag (a dev dependency, used only by the tests); the finding spelling
 * below restates the pack's (cdk-nag utils/flatten-cfn-reference), so an acknowledgement names the
 * very ARN a grant used rather than a logical id typed by hand. If the spelling ever drifts, the
 * security review test fails and lists the unacknowledged finding.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** Acknowledges `rule` (an AwsSolutions rule id, with its `[finding]` where the rule has several) on `construct`. */
export function acknowledgeNag(construct: IConstruct, rule: string, reason: string): void {
  Validations.of(construct).acknowledge({ id: rule.startsWith('AwsSolutions-') ? rule : `AwsSolutions-${rule}`, reason });
}

/** cdk-nag's flat spelling of a CloudFormation value: `<Id.Arn>` for GetAtt, `<Id>` for Ref, joins concatenated. */
function flatten(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const value = node as Record<string, unknown>;
  if (value['Fn::Join']) {
    const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
    return items.map(flatten).join(delimiter);
  }
  if (value['Fn::Sub']) return flatten(value['Fn::Sub']);
  if (value['Fn::GetAtt']) {
    const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
    return `<${flatten(resource)}.${flatten(attribute)}>`;
  }
  if (value['Fn::ImportValue']) return flatten(value['Fn::ImportValue']);
  if (value.Ref) return `<${flatten(value.Ref)}>`;
  return JSON.stringify(node);
}

/** The IAM5 finding id of a wildcard resource (an ARN, tokens allowed) as cdk-nag names it. */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(arn))}]`;
}

/**
 * The wildcard action families Bucket.grantRead (READ) and grantReadWrite (READ and WRITE) hold:
 * each is the object (or bucket) reads or writes of one kind, on that bucket and its objects only.
 */
export const BUCKET_GRANT_READ_ACTIONS = ['s3:GetObject*', 's3:GetBucket*', 's3:List*'] as const;
export const BUCKET_GRANT_WRITE_ACTIONS = ['s3:DeleteObject*', 's3:Abort*'] as const;

/** Acknowledges a method open without a key (no authoriser at all, so neither Cognito's nor another). */
export function acknowledgePublicMethod(method: IConstruct, reason: string): void {
  acknowledgeNag(method, 'AwsSolutions-APIG4', reason);
  acknowledgeNag(method, 'AwsSolutions-COG4', reason);
}

/** The IAM5 finding id of a wildcard action (`s3:GetObject*`). */
export const wildcardActionFinding = (action: string): string => `AwsSolutions-IAM5[Action::${action}]`;

/** The X-Ray permissions CDK grants for active tracing: X-Ray has no resource-level permissions. */
export function acknowledgeXrayWildcard(grantee: IConstruct): void {
  acknowledgeNag(
    grantee,
    'AwsSolutions-IAM5[Resource::*]',
    'xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing) support no resource-level permissions; AWS documents Resource "*" for them.',
  );
}
