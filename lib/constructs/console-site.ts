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
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_PAGE_FILES, consoleCacheControl } from '../../web/build-console';
import { ConsoleAsset } from '../bundling/console-asset';
import { acknowledgeNag, BUCKET_GRANT_READ_ACTIONS, BUCKET_GRANT_WRITE_ACTIONS, wildcardActionFinding, wildcardResourceFinding } from './nag-acknowledgements';

export interface ConsoleSiteProps {
  /**
   * Memory of the deployment's custom-resource function, which unzips and uploads the files;
   * default 256 MB (the console is well under a megabyte).
   */
  deploymentMemoryMb?: number;
  /** Retention of the deployment function's log group; default one month. */
  logRetention?: RetentionDays;
  /** Where the console bucket's S3 server access logs go (prefix `console/`); default none. */
  accessLogsBucket?: IBucket;
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
      ...(props.accessLogsBucket ? { serverAccessLogsBucket: props.accessLogsBucket, serverAccessLogsPrefix: 'console/' } : {}),
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
    this.acknowledgeDeploymentFunction(asset);
  }

  /**
   * CDK's BucketDeployment function (one per memory size, shared by both deployments) is CDK's
   * code with CDK's role: its runtime and grants are not ours to choose.
   */
  private acknowledgeDeploymentFunction(asset: ConsoleAsset): void {
    const role = this.assetsDeployment.handlerRole;
    const fn = role.node.scope!;
    acknowledgeNag(fn, 'AwsSolutions-L1', "CDK's BucketDeployment handler: CDK pins its runtime (a Python runtime it tests with); it runs only at deploy time.");
    acknowledgeNag(
      role,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "CDK's BucketDeployment handler role, which CDK creates with the basic execution policy; the handler writes only its logs.",
    );
    const reason = 'BucketDeployment grants: read the console build asset, write the console bucket, nothing else.';
    for (const action of [...BUCKET_GRANT_READ_ACTIONS, ...BUCKET_GRANT_WRITE_ACTIONS]) {
      acknowledgeNag(role, wildcardActionFinding(action), reason);
    }
    acknowledgeNag(role, wildcardResourceFinding(this, asset.bucket.arnForObjects('*')), `${reason} Asset keys are content hashes.`);
    acknowledgeNag(role, wildcardResourceFinding(this, this.bucket.arnForObjects('*')), `${reason} Asset names are content hashes.`);
  }
}
