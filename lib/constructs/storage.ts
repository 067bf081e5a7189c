/**
 * Where the service keeps its state: one S3 bucket for every file (sources,
 * uploads, outputs, reports) and one DynamoDB table for every record. The table's
 * keys come from the schema the local runtime also provisions dynalite with, so
 * both create the same table.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import { UPLOAD_OBJECT_TAG } from '../../lambdas/domain/blob-keys';

export interface StorageProps {
  /**
   * Keep the bucket and table when the stack is deleted (default true): they
   * hold customers' jobs. With false they are destroyed, bucket contents included.
   */
  retainData?: boolean;
  /**
   * Browser origins allowed to POST to presigned upload forms and GET presigned
   * downloads directly (default none: clients upload from their servers).
   */
  corsAllowedOrigins?: string[];
  /** Days after which an unused upload (tagged UPLOAD_OBJECT_TAG) is deleted; default 3. */
  uploadExpiryDays?: number;
}

export class Storage extends Construct {
  readonly bucket: Bucket;
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);
    const retain = props.retainData ?? true;
    const removalPolicy = retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const cors = props.corsAllowedOrigins ?? [];

    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy,
      autoDeleteObjects: !retain,
      cors:
        cors.length > 0
          ? [
              {
                allowedOrigins: cors,
                allowedMethods: [HttpMethods.POST, HttpMethods.GET, HttpMethods.HEAD],
                allowedHeaders: ['*'],
                exposedHeaders: ['ETag', 'Location'],
                maxAge: 3600,
              },
            ]
          : undefined,
      lifecycleRules: [
        {
          // Upload keys are `<accountId>/uploads/<uploadId>`: no common prefix,
          // so the rule matches the tag the presigned POST puts on them.
          id: 'ExpireUnusedUploads',
          tagFilters: { [UPLOAD_OBJECT_TAG.key]: UPLOAD_OBJECT_TAG.value },
          expiration: Duration.days(props.uploadExpiryDays ?? 3),
        },
        {
          id: 'AbortIncompleteMultipartUploads',
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });

    this.table = new Table(this, 'Records', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_SCHEMA.gsi1.name,
      partitionKey: { name: TABLE_SCHEMA.gsi1.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.gsi1.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }

  /**
   * Lets the console at `origin` upload to presigned POST forms and read presigned downloads from
   * a browser: one CORS rule naming that origin only, never `*` (the local storage gateway answers
   * the same, local/storage-cors.ts). A distribution's own domain cannot be named when the
   * distribution depends on this bucket (the stack's does: its CSP names the bucket), as
   * CloudFormation refuses the cycle; lib/proofline-stack.ts says what it passes instead.
   */
  allowConsoleOrigin(origin: string): void {
    this.bucket.addCorsRule({
      id: 'ConsoleUploads',
      allowedOrigins: [origin],
      allowedMethods: [HttpMethods.POST, HttpMethods.GET, HttpMethods.HEAD],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag', 'Location'],
      maxAge: 3600,
    });
  }
}
