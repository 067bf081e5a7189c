/**
 * Where the service keeps its state: one S3 bucket for every file (sources,
 * uploads, outputs, reports) and one DynamoDB table for every record. The table's
 * keys come from the schema the local runtime also provisions dynalite with, so
 * both create the same table.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { acknowledgeNag, BUCKET_GRANT_READ_ACTIONS, BUCKET_GRANT_WRITE_ACTIONS, wildcardActionFinding, wildcardResourceFinding } from './nag-acknowledgements';
import { TABLE_SCHEMA } from '../../lambdas/adapters/aws/table-schema';
import { UPLOAD_OBJECT_TAG } from '../../lambdas/domain/blob-keys';
import { MAX_RETENTION_DAYS } from '../../lambdas/domain/retention';

/**
 * Days after which the bucket deletes any file, whoever's it is: the backstop behind the retention
 * sweep (lib/constructs/retention-sweep.ts), which deletes an expired job's files itself. Every
 * key of the bucket is a job's file or an upload (domain/blob-keys.ts), and every key starts with
 * its account's id, so no prefix covers them and no rule can tell an account with a ten-year period
 * from one with thirty days: the rule applies to the whole bucket after the longest period an
 * account may have. A file is never older than its job, except an upload, which is older than
 * the jobs made from it by at most its form's validity plus a day (UPLOAD_RECORD_RETENTION_SECONDS);
 * the week's margin covers that, and leaves the sweep time to delete a job whole (its records
 * with its files) before the bucket deletes its files alone.
 */
export const FILES_BACKSTOP_EXPIRY_DAYS = MAX_RETENTION_DAYS + 7;

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
  /** Where the files bucket's S3 server access logs go (prefix `files/`); default none. */
  accessLogsBucket?: IBucket;
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
      ...(props.accessLogsBucket ? { serverAccessLogsBucket: props.accessLogsBucket, serverAccessLogsPrefix: 'files/' } : {}),
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
          id: 'ExpireFilesPastLongestRetention',
          expiration: Duration.days(FILES_BACKSTOP_EXPIRY_DAYS),
        },
        {
          id: 'AbortIncompleteMultipartUploads',
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        // The bucket is not versioned (a deleted job's files must be gone, not kept as noncurrent
        // versions), so no rule for noncurrent versions is needed.
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
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_SCHEMA.expiryIndex.name,
      partitionKey: { name: TABLE_SCHEMA.expiryIndex.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.expiryIndex.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...TABLE_SCHEMA.expiryIndex.projectedAttributes],
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_SCHEMA.unfinishedIndex.name,
      partitionKey: { name: TABLE_SCHEMA.unfinishedIndex.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.unfinishedIndex.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });
  }

  /**
   * Lets `fn` read the files (`read`) or also write and delete them (`readWrite`), by the bucket's
   * own grants, and acknowledges the wildcards those grants hold: every object key of the bucket
   * (`<bucket>/*`: keys are made per job at run time) and the action families.
   */
  grantFiles(fn: IFunction, access: 'read' | 'readWrite'): void {
    if (access === 'read') this.bucket.grantRead(fn);
    else this.bucket.grantReadWrite(fn);
    const role = fn.role ?? fn;
    const actions = access === 'read' ? BUCKET_GRANT_READ_ACTIONS : [...BUCKET_GRANT_READ_ACTIONS, ...BUCKET_GRANT_WRITE_ACTIONS];
    for (const action of actions) {
      acknowledgeNag(role, wildcardActionFinding(action), `${action} from Bucket.${access === 'read' ? 'grantRead' : 'grantReadWrite'}: only on the files bucket and its objects.`);
    }
    acknowledgeNag(
      role,
      wildcardResourceFinding(this, this.bucket.arnForObjects('*')),
      'Object keys are made per account and job at run time (<accountId>/jobs/<jobId>/…); the grant is limited to the files bucket.',
    );
  }

  /**
   * Lets `fn` read the records (`read`) or also write them (`readWrite`), by the table's own grants,
   * and acknowledges the one wildcard they hold: the table's indexes (`<table>/index/*`), which the
   * job listing and the retention sweep query.
   */
  grantRecords(fn: IFunction, access: 'read' | 'readWrite'): void {
    if (access === 'read') this.table.grantReadData(fn);
    else this.table.grantReadWriteData(fn);
    acknowledgeNag(
      fn.role ?? fn,
      wildcardResourceFinding(this, `${this.table.tableArn}/index/*`),
      "The table's own indexes (Table.grant*Data): jobs are listed by account through gsi1, and found by expiry day through expiry (the retention sweep).",
    );
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
