/**
 * Where the service's access logs go: S3 server access logs of the files and console buckets
 * (prefixes `files/` and `console/`) and the CloudFront distribution's standard logs
 * (`cloudfront/`). A bucket of its own, so a log never lands next to customers' files.
 *
 * CloudFront's standard logging writes with an ACL, so this bucket, unlike the others, keeps
 * object ACLs on (OBJECT_WRITER); it is still private (all public access blocked) and TLS only.
 * It does not log its own accesses: that would log each log delivery, for ever (acknowledged
 * below, cdk-nag AwsSolutions-S1).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag-acknowledgements';

export interface AccessLogsBucketProps {
  /** Keep the logs when the stack is deleted; default true, like the service's data. */
  retainData?: boolean;
}

export class AccessLogsBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: AccessLogsBucketProps = {}) {
    super(scope, id);
    const retain = props.retainData ?? true;
    this.bucket = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !retain,
    });
    acknowledgeNag(
      this.bucket,
      'AwsSolutions-S1',
      'This is the access-log bucket the other buckets and the distribution log to; logging its own accesses would log every log delivery.',
    );
  }
}
