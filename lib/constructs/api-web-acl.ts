/**
 * An optional AWS WAF web ACL in front of the API's stage (context option `webAcl`): AWS managed
 * rule groups for common exploits, known bad inputs and IP addresses with a bad reputation, and a
 * rate rule per client address. It is regional, on the stage, so it sees the API's calls whether
 * they come through the distribution or to the API's own URL (a CloudFront web ACL would have to
 * live in us-east-1).
 *
 * Through the distribution, requests reach the stage from CloudFront's addresses, so the rate rule
 * counts by the client address CloudFront forwards (X-Forwarded-For, its first address); a request
 * without that header counts as matching the rule. The stage's throttling still applies to all.
 */
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';

export interface ApiWebAclProps {
  /** The stage to protect (Api.restApi.deploymentStage). */
  stage: Stage;
  /** Requests per client address in any 5-minute window before WAF blocks it; default 2000. */
  rateLimitPer5Minutes?: number;
}

/** The AWS managed rule groups the web ACL runs, in priority order after the rate rule. */
export const MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

/**
 * Rules of the common rule set that only count: job requests may carry a JSON body over its 8 KB
 * limit (many files with order details), which the handlers bound themselves.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const limit = props.rateLimitPer5Minutes ?? 2000;
    if (!Number.isInteger(limit) || limit < 10) throw new Error(`rateLimitPer5Minutes must be a whole number of at least 10 (WAF's minimum), got ${limit}`);

    const managed = MANAGED_RULE_GROUPS.map((name, i): CfnWebACL.RuleProperty => ({
      name,
      priority: i + 1,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(name === 'AWSManagedRulesCommonRuleSet'
            ? { ruleActionOverrides: COUNTED_COMMON_RULES.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }
            : {}),
        },
      },
      visibilityConfig: visibility(name),
    }));

    this.webAcl = new CfnWebACL(this, 'Resource', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      description: 'Proofline API: AWS managed rule groups and a rate rule per client address.',
      visibilityConfig: visibility('ProoflineApi'),
      rules: [
        {
          name: 'RatePerClientAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit,
              aggregateKeyType: 'FORWARDED_IP',
              forwardedIpConfig: { headerName: 'X-Forwarded-For', fallbackBehavior: 'MATCH' },
            },
          },
          visibilityConfig: visibility('RatePerClientAddress'),
        },
        ...managed,
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
