/**
 * Where the web console's static files live in the cloud: a private bucket of their own (never the
 * files bucket, which holds customers' data), filled at deploy time from the console asset
 * (../bundling/console-asset.ts). CloudFront reads it through Origin Access Control
 * (./public-distribution.ts); nothing else can.
 *
 * Two deployments from the one asset, in order: first the hashed assets, cached for good, then the
 * pages (the console's and the customer's proof page), revalidated on every load. A browser that loads the new page therefore always finds the
 * assets it names. Neither prunes, so a page loaded just before a deploy still finds the assets it
 * names too (old builds stay behind: a few hundred kilobytes each).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_PAGE_FILES, consoleCacheControl } from '../../web/build-console';
import { ConsoleAsset } from '../bundling/console-asset';

export interface ConsoleSiteProps {
  /**
   * Memory of the deployment's custom-resource function, which unzips and uploads the files;
   * default 256 MB (the console is well under a megabyte).
   */
  deploymentMemoryMb?: number;
  /** Retention of the deployment function's log group; default one month. */
  logRetention?: RetentionDays;
}

export class ConsoleSite extends Construct {
  /** The console's files; private, read only by the distribution. */
  readonly bucket: Bucket;
  /** Puts `assets/…` (hashed names) with a year's Cache-Control. */
  readonly assetsDeployment: BucketDeployment;
  /** Puts the pages (CONSOLE_PAGE_FILES: the console's and the proof page) as HTML with `no-cache`, after the assets. */
  readonly pageDeployment: BucketDeployment;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps = {}) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Only build output: every deploy puts it back, so it leaves with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const asset = new ConsoleAsset(this, 'Build');
    const source = Source.bucket(asset.bucket, asset.s3ObjectKey);
    // Both deployments run in one function (CDK makes it a singleton per memory size): one log group.
    const deployment = {
      memoryLimit: props.deploymentMemoryMb ?? 256,
      logGroup: new LogGroup(this, 'DeploymentLogs', {
        retention: props.logRetention ?? RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    };

    this.assetsDeployment = new BucketDeployment(this, 'Assets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: [...CONSOLE_PAGE_FILES],
      prune: false,
      cacheControl: [CacheControl.fromString(consoleCacheControl({ immutable: true }))],
      ...deployment,
    });
    this.pageDeployment = new BucketDeployment(this, 'Page', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [...CONSOLE_PAGE_FILES],
      prune: false,
      cacheControl: [CacheControl.fromString(consoleCacheControl({ immutable: false }))],
      // The proof page has no extension to guess its type from.
      contentType: 'text/html; charset=utf-8',
      ...deployment,
    });
    this.pageDeployment.node.addDependency(this.assetsDeployment);
  }
}
