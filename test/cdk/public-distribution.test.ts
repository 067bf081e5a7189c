/**
 * The one public URL (lib/constructs/public-distribution.ts, console-site.ts): a CloudFront
 * distribution that serves the console from a private bucket and sends every route of
 * lambdas/api/routes.ts to API Gateway, as synthesized (bundling skipped, one synth for the file).
 * Requests are followed the way CloudFront routes them: the first behaviour whose path pattern
 * matches, else the default one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { ROUTES } from '../../lambdas/api/routes';
import { pathPatternMatches } from '../../lib/constructs/api-path-patterns';
import { consoleCacheControl } from '../../web/build-console';
import { synthProofline } from './support/synth';
import { functionIdByEntry, getAttId, refId, resource, resourcesOfType, type CfnResource } from './support/template-queries';

interface Behaviour {
  PathPattern?: string;
  TargetOriginId: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ResponseHeadersPolicyId?: unknown;
  AllowedMethods: string[];
  ViewerProtocolPolicy: string;
}

let template: Template;
let config: { DefaultCacheBehavior: Behaviour; CacheBehaviors: Behaviour[]; Origins: Record<string, any>[]; DefaultRootObject: string };
let distributionId: string;
let consoleBucketId: string;
let filesBucketId: string;
let restApiId: string;

beforeAll(() => {
  ({ template } = synthProofline());
  const distributions = resourcesOfType(template, 'AWS::CloudFront::Distribution');
  expect(distributions).toHaveLength(1);
  [distributionId] = distributions[0]!;
  config = distributions[0]![1].Properties.DistributionConfig;
  const buckets = resourcesOfType(template, 'AWS::S3::Bucket').map(([id]) => id);
  consoleBucketId = buckets.find((id) => id.startsWith('Console'))!;
  filesBucketId = buckets.find((id) => id.startsWith('Storage'))!;
  [restApiId] = resourcesOfType(template, 'AWS::ApiGateway::RestApi')[0]!;
});

/** The behaviour CloudFront picks for a path. */
const behaviourFor = (path: string): Behaviour =>
  config.CacheBehaviors.find((b) => pathPatternMatches(b.PathPattern!, path)) ?? config.DefaultCacheBehavior;
const originOf = (b: Behaviour): Record<string, any> => config.Origins.find((o) => o.Id === b.TargetOriginId)!;
const isConsoleOrigin = (o: Record<string, any>): boolean => getAttId(o.DomainName) === consoleBucketId;
const isApiOrigin = (o: Record<string, any>): boolean => JSON.stringify(o.DomainName).includes(`{"Ref":"${restApiId}"}`);
/** A request path of a route, its parameters filled in. */
const concrete = (path: string): string => path.replace(/\{[^}]+\}/g, 'j_01HXAMPLE');

describe('the console behind the distribution', () => {
  it('is the default behaviour, from the console bucket through Origin Access Control, / serving index.html', () => {
    expect(config.DefaultRootObject).toBe('index.html');
    const origin = originOf(config.DefaultCacheBehavior);
    expect(isConsoleOrigin(origin)).toBe(true);
    expect(origin.S3OriginConfig).toBeDefined();
    const oac = resource(template, getAttId(origin.OriginAccessControlId)!);
    expect(oac.Type).toBe('AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    for (const path of ['/', '/index.html', '/proof', '/assets/console-ABC123.js', '/assets/styles-ABC123.css']) expect(isConsoleOrigin(originOf(behaviourFor(path))), path).toBe(true);
  });

  it('is read from its bucket by this distribution only, and the bucket blocks all public access', () => {
    const bucket = resource(template, consoleBucketId);
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    const [, policy] = resourcesOfType(template, 'AWS::S3::BucketPolicy').find(([, p]) => refId(p.Properties.Bucket) === consoleBucketId)!;
    const statements = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
    const reads = statements.filter((s) => s.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(reads[0]!.Condition.StringEquals['AWS:SourceArn'])).toContain(`{"Ref":"${distributionId}"}`);
    expect(statements.filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Principal).includes('"*"'))).toEqual([]);
  });

  it('never caches the page and caches the hashed assets, GET and HEAD only, over HTTPS', () => {
    expect(behaviourFor('/').CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(behaviourFor('/assets/console-ABC123.js').CachePolicyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
    for (const path of ['/', '/assets/console-ABC123.js']) {
      expect(behaviourFor(path).AllowedMethods).toEqual(['GET', 'HEAD']);
      expect(behaviourFor(path).ViewerProtocolPolicy).toBe('redirect-to-https');
    }
  });

  it('carries the console’s CSP, no inline script or style, allowing images and uploads from the files bucket only', () => {
    const ids = ['/', '/assets/console-ABC123.js'].map((path) => refId(behaviourFor(path).ResponseHeadersPolicyId));
    expect(new Set(ids).size).toBe(1);
    const policy = resource(template, ids[0]!).Properties.ResponseHeadersPolicyConfig;
    const csp = policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy['Fn::Join'][1] as unknown[];
    const text = csp.map((part) => (typeof part === 'string' ? part : `<${getAttId(part)}>`)).join('');
    const directives = text.split('; ');
    expect(directives).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]));
    expect(directives).toContain(`img-src 'self' data: blob: https://<${filesBucketId}>`);
    expect(directives).toContain(`connect-src 'self' https://<${filesBucketId}>`);
    expect(text).not.toContain('unsafe');
    expect(policy.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31536000, Override: true },
    });
  });
});

describe('the console deployment', () => {
  let deployments: [string, CfnResource][];
  beforeAll(() => {
    deployments = resourcesOfType(template, 'Custom::CDKBucketDeployment');
  });
  const named = (prefix: string): [string, CfnResource] => deployments.find(([id]) => id.startsWith(prefix))!;

  it('puts the hashed assets first, cached for good, then the pages (the console and /proof) as HTML, revalidated every time, both from the one build', () => {
    expect(deployments).toHaveLength(2);
    const [assetsId, assets] = named('ConsoleAssets');
    const [, page] = named('ConsolePage');
    for (const [, d] of [named('ConsoleAssets'), named('ConsolePage')]) {
      expect(refId(d.Properties.DestinationBucketName)).toBe(consoleBucketId);
      expect(d.Properties.Prune).toBe(false);
    }
    expect(assets.Properties.Exclude).toEqual(['index.html', 'proof']);
    expect(assets.Properties.Include).toBeUndefined();
    expect(assets.Properties.SystemMetadata).toEqual({ 'cache-control': consoleCacheControl({ immutable: true }) });
    expect(page.Properties.Exclude).toEqual(['*']);
    expect(page.Properties.Include).toEqual(['index.html', 'proof']);
    // `proof` has no extension for the type to be guessed from: a download instead of a page otherwise.
    expect(page.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache', 'content-type': 'text/html; charset=utf-8' });
    expect(page.Properties.SourceObjectKeys).toEqual(assets.Properties.SourceObjectKeys);
    expect([(page as CfnResource & { DependsOn?: string[] }).DependsOn].flat()).toContain(assetsId);
  });

  it('runs in a function whose log group is kept a month', () => {
    const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id.startsWith('CustomCDKBucketDeployment'))!;
    expect(resource(template, refId(fn.Properties.LoggingConfig.LogGroup)!).Properties.RetentionInDays).toBe(30);
  });
});

describe('the API behind the distribution', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, concrete(r.path)]))(
    '%s goes to the API stage, uncached, every method, every viewer header but Host (Authorization too), over HTTPS only',
    (_, path) => {
      const behaviour = behaviourFor(path);
      const origin = originOf(behaviour);
      expect(isApiOrigin(origin)).toBe(true);
      expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.eu-west-1.');
      expect(origin.OriginPath).toBe('/v1');
      expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
      expect(behaviour.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      // The managed AllViewerExceptHostHeader policy: with caching disabled it passes Authorization on.
      expect(behaviour.OriginRequestPolicyId).toBe(OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
      expect(behaviour.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      expect(behaviour.ViewerProtocolPolicy).toBe('https-only');
      expect(behaviour.ResponseHeadersPolicyId).toBeUndefined();
    },
  );

  it('has no API behaviour that no route needs', () => {
    const api = config.CacheBehaviors.filter((b) => isApiOrigin(originOf(b)));
    expect(api.length).toBeGreaterThan(0);
    for (const b of api) {
      expect(ROUTES.some((r) => pathPatternMatches(b.PathPattern!, concrete(r.path))), b.PathPattern).toBe(true);
    }
  });
});

describe('the public URL', () => {
  const url = (): string => JSON.stringify({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });

  it('is the ConsoleUrl output: https and the distribution’s domain', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.ConsoleUrl!.Value)).toBe(url());
  });

  it('is given to every route handler as PUBLIC_ORIGIN, where share links point', () => {
    for (const handler of new Set(ROUTES.map((r) => r.handler))) {
      const env = resource(template, functionIdByEntry(template, `lambdas/api/${handler}.ts`)).Properties.Environment.Variables;
      expect(JSON.stringify(env.PUBLIC_ORIGIN), handler).toBe(url());
    }
  });
});
