/**
 * The one public origin of a deployment: a CloudFront distribution that serves the web console
 * from its private bucket (Origin Access Control) and passes the API's paths to API Gateway, so
 * the console calls the API on its own origin and needs no CORS.
 *
 * - Console: the page (`/`, the default root object) is not cached by CloudFront and carries
 *   `no-cache` for browsers; `/assets/*` (hashed names) is cached for a year. Both carry the
 *   console's security headers (./console-headers-policy.ts).
 * - API: one behaviour per path pattern derived from ROUTES (./api-path-patterns.ts), never
 *   cached, every method, and every viewer header but Host (API Gateway answers only to its own
 *   host name), query string and cookie passed on. With caching disabled, that origin request
 *   policy also passes Authorization, the Bearer key. HTTPS only: a key sent over HTTP is refused
 *   rather than redirected after it has crossed the network in clear.
 *
 * The API origin is named by the REST API's id and the stage's name, not by the stage resource:
 * so the distribution depends on the RestApi alone, and the API's functions can be told the
 * distribution's URL (PUBLIC_ORIGIN) without a dependency cycle (through stage, deployment, methods
 * and functions; synthesis refuses a template with a cycle).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { IRestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type ICachePolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag-acknowledgements';
import { ROUTES, type RouteSpec } from '../../lambdas/api/routes';
import { CONSOLE_INDEX_FILE } from '../../web/build-console';
import { apiPathPatterns, CONSOLE_ASSETS_PATTERN } from './api-path-patterns';
import { ConsoleHeadersPolicy } from './console-headers-policy';

export interface PublicDistributionProps {
  /** The console's files (ConsoleSite.bucket). */
  consoleBucket: IBucket;
  restApi: IRestApi;
  /** The API stage's name (Api.stageName), a plain string: the origin path. */
  apiStageName: string;
  /** The files bucket: presigned URLs point there, so the console's CSP allows it for images and uploads. */
  filesBucket: IBucket;
  /** The routes whose paths go to the API; default ROUTES. */
  routes?: readonly Pick<RouteSpec, 'path'>[];
  /** Edge locations to serve from; default all of them. */
  priceClass?: PriceClass;
  /** Where CloudFront's standard access logs go (prefix `cloudfront/`); default none. */
  logBucket?: IBucket;
}

export class PublicDistribution extends Construct {
  readonly distribution: Distribution;
  /** `https://<id>.cloudfront.net`, no trailing slash: the console, and the API under the same origin. */
  readonly url: string;
  /** `<id>.cloudfront.net`. */
  readonly domainName: string;
  /** The API path patterns, in the order of the behaviours. */
  readonly apiPathPatterns: readonly string[];

  constructor(scope: Construct, id: string, props: PublicDistributionProps) {
    super(scope, id);
    const stack = Stack.of(this);

    const headers = new ConsoleHeadersPolicy(this, 'ConsoleHeaders', {
      storageOrigin: `https://${props.filesBucket.bucketRegionalDomainName}`,
    });
    const consoleOrigin = S3BucketOrigin.withOriginAccessControl(props.consoleBucket);
    const consoleBehaviour = (cachePolicy: ICachePolicy): BehaviorOptions => ({
      origin: consoleOrigin,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy,
      responseHeadersPolicy: headers,
      compress: true,
    });

    const apiOrigin = new HttpOrigin(`${props.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      originPath: `/${props.apiStageName}`,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      // Longer than API Gateway's 29 s integration limit, so a slow sync job ends in the gateway's
      // own 504, in the contract's error shape, rather than in CloudFront's.
      readTimeout: Duration.seconds(30),
    });
    const api: BehaviorOptions = {
      origin: apiOrigin,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
    };

    this.apiPathPatterns = apiPathPatterns(props.routes ?? ROUTES);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${stack.stackName}: console and API`,
      defaultRootObject: CONSOLE_INDEX_FILE,
      defaultBehavior: consoleBehaviour(CachePolicy.CACHING_DISABLED),
      additionalBehaviors: {
        [CONSOLE_ASSETS_PATTERN]: consoleBehaviour(CachePolicy.CACHING_OPTIMIZED),
        ...Object.fromEntries(this.apiPathPatterns.map((pattern) => [pattern, api])),
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: props.priceClass ?? PriceClass.PRICE_CLASS_ALL,
      ...(props.logBucket ? { enableLogging: true, logBucket: props.logBucket, logFilePrefix: 'cloudfront/' } : {}),
    });
    acknowledgeNag(
      this.distribution,
      'AwsSolutions-CFR1',
      "Print shops' customers open proofs from anywhere; a deployment for one market can add a geo restriction.",
    );
    acknowledgeNag(
      this.distribution,
      'AwsSolutions-CFR2',
      'The optional web ACL (context webAcl) is on the API stage, which every API request reaches, through this distribution or not; the console files behind it are static.',
    );
    acknowledgeNag(
      this.distribution,
      'AwsSolutions-CFR4',
      "Served on the distribution's own *.cloudfront.net name with CloudFront's default certificate, whose TLS policy CloudFront fixes; a custom domain with its own certificate is the way to TLSv1.2_2021.",
    );
    this.domainName = this.distribution.distributionDomainName;
    this.url = `https://${this.domainName}`;
  }
}
