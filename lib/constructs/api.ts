/**
 * The public HTTP API: an API Gateway REST API with one method and one Lambda
 * per entry of ROUTES (lambdas/api/routes.ts), the token authoriser in front of
 * every `auth: true` route, stage throttling, and Gateway Responses that put the
 * gateway's own errors into the contract's shape (./gateway-responses.ts).
 *
 * Revocation must take effect within 60 s (docs/api.md §8). The only cache of a
 * key's verdict is the gateway's authoriser cache (per token); its TTL is also
 * given to the functions as AUTH_CACHE_TTL_SECONDS, the value the local runtime
 * emulates that cache with, so both behave alike.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  AccessLogFormat,
  MethodLoggingLevel,
  RestApi,
  TokenAuthorizer,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { AUTHORIZER_ENTRY, ROUTES, routeEntry, type RouteSpec } from '../../lambdas/api/routes';
import type { EntryResolver } from '../paths';
import { addGatewayResponses } from './gateway-responses';
import { ProoflineNodejsFunction } from './proofline-nodejs-function';
import { addMethodNotAllowed } from './method-not-allowed';
import { acknowledgeNag, acknowledgePublicMethod } from './nag-acknowledgements';
import { grantStopJobExecutions } from './stop-job-executions';
import type { Storage } from './storage';

/** docs/api.md §8: a revoked key stops working within this. */
export const REVOCATION_DEADLINE_SECONDS = 60;

export interface ApiProps {
  storage: Storage;
  /** The job pipeline's Express machine, which the job-creating routes start. */
  pipeline: IStateMachine;
  /** Its Standard machine, whose executions DELETE /jobs/{id} stops (Express ones cannot be stopped). */
  standardPipeline: IStateMachine;
  /** The key share links are signed with, for the routes that `use` it (routes.ts); read at run time, never in the template. */
  shareSigningSecret: ISecret;
  /** The job events bus, for the routes that `use` it to publish (POST /share/decision). */
  eventBus: IEventBus;
  /** Stage name, the first path segment of ApiUrl; default `v1`. */
  stageName?: string;
  /** Steady-state requests per second for the stage; default 100. */
  throttlingRateLimit?: number;
  /** Burst capacity for the stage; default 200. */
  throttlingBurstLimit?: number;
  /** How long the gateway caches the authoriser's verdict per token; default 30 s, at most 60. */
  authCacheTtlSeconds?: number;
  /**
   * Access logs (JSON, standard fields) and execution logs (level ERROR, no request or response
   * bodies) of the stage. They need API Gateway's account-wide CloudWatch role, which this then
   * creates (and keeps when the stack is deleted, as other APIs of the account may rely on it);
   * default on. Turn off only where the account's API Gateway settings are managed elsewhere.
   */
  accessLogs?: boolean;
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

const pascal = (kebab: string): string => kebab.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

export class Api extends Construct {
  readonly restApi: RestApi;
  /** The stage's name as a plain string (the stage resource's name is a reference to it). */
  readonly stageName: string;
  readonly authorizerFunction: ProoflineNodejsFunction;
  /** Route handler functions by ROUTES handler name (`create-job`). */
  readonly handlers: Record<string, ProoflineNodejsFunction> = {};

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { bucket, table } = props.storage;
    const authCacheTtl = props.authCacheTtlSeconds ?? 30;
    if (!Number.isInteger(authCacheTtl) || authCacheTtl < 0 || authCacheTtl > REVOCATION_DEADLINE_SECONDS) {
      throw new Error(
        `authCacheTtlSeconds must be a whole number from 0 to ${REVOCATION_DEADLINE_SECONDS}, got ${authCacheTtl}: ` +
          'a revoked key must stop working within that (docs/api.md §8)',
      );
    }
    const environment: Record<string, string> = {
      TABLE_NAME: table.tableName,
      BUCKET_NAME: bucket.bucketName,
      STATE_MACHINE_ARN: props.pipeline.stateMachineArn,
      NETWORK_MODE: 'cloud',
      AUTH_CACHE_TTL_SECONDS: String(authCacheTtl),
    };
    const accessLogs = props.accessLogs ?? true;
    this.stageName = props.stageName ?? 'v1';

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `${Stack.of(this).stackName}-api`,
      description: 'Proofline public API (see docs/api.md).',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: accessLogs,
      ...(accessLogs ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName: this.stageName,
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: props.throttlingRateLimit ?? 100,
        throttlingBurstLimit: props.throttlingBurstLimit ?? 200,
        ...(accessLogs
          ? {
              loggingLevel: MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
              accessLogDestination: new LogGroupLogDestination(
                new LogGroup(this, 'AccessLogs', {
                  retention: props.logRetention ?? RetentionDays.ONE_MONTH,
                  removalPolicy: RemovalPolicy.DESTROY,
                }),
              ),
              accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
            }
          : {}),
      },
    });
    addGatewayResponses(this.restApi);
    acknowledgeNag(
      this.restApi,
      'AwsSolutions-APIG2',
      'Every handler validates its request against the contract (zod schemas, docs/api.md) and answers in its error shape; a gateway request validator without models would check nothing more.',
    );
    if (accessLogs) {
      acknowledgeNag(
        this.restApi,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        "API Gateway's account-wide CloudWatch role: the AWS managed policy is the one AWS documents for it, and the role may be assumed by API Gateway only.",
      );
    }

    this.authorizerFunction = new ProoflineNodejsFunction(this, 'AuthorizerFunction', {
      entry: AUTHORIZER_ENTRY,
      memoryMb: 512,
      timeoutSeconds: 10,
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      environment,
    });
    props.storage.grantRecords(this.authorizerFunction, 'read');
    const authorizer = new TokenAuthorizer(this, 'SecretKeyAuthorizer', {
      handler: this.authorizerFunction,
      identitySource: IdentitySource.header('Authorization'),
      resultsCacheTtl: Duration.seconds(authCacheTtl),
    });

    const methodsByResource = new Map<IResource, string[]>();
    for (const route of ROUTES) {
      const fn = this.routeFunction(route, environment, props);
      const resource = this.restApi.root.resourceForPath(route.path);
      const method = resource.addMethod(route.method, new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false }), {
        operationName: pascal(route.handler),
        ...(route.auth ? { authorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE }),
      });
      if (route.auth) {
        acknowledgeNag(
          method,
          'AwsSolutions-COG4',
          "Authorised by the custom key authoriser (TokenAuthorizer on the Authorization header): clients are shops' servers holding API keys (docs/api.md §8), not Cognito users.",
        );
      } else {
        const reason = `${route.method} ${route.path} is public by the contract (docs/api.md, auth: false): it serves no account's data, or only one job's proof to the holder of a signed share link, which the handler verifies.`;
        acknowledgePublicMethod(method, reason);
      }
      methodsByResource.set(resource, [...(methodsByResource.get(resource) ?? []), route.method]);
    }
    for (const [resource, methods] of methodsByResource) addMethodNotAllowed(resource, methods);
  }

  private routeFunction(route: RouteSpec, environment: Record<string, string>, props: ApiProps): ProoflineNodejsFunction {
    const existing = this.handlers[route.handler];
    if (existing) return existing;
    const uses = route.uses ?? [];
    const fn = new ProoflineNodejsFunction(this, `${pascal(route.handler)}Function`, {
      entry: routeEntry(route),
      memoryMb: route.memoryMb,
      timeoutSeconds: route.timeoutSeconds,
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      environment: {
        ...environment,
        ...(uses.includes('shareKey') ? { SHARE_SIGNING_SECRET_ARN: props.shareSigningSecret.secretArn } : {}),
        ...(uses.includes('eventBus') ? { EVENT_BUS_NAME: props.eventBus.eventBusName } : {}),
      },
    });
    // Only the functions that sign or check share links may read their key; only those that publish, publish.
    if (uses.includes('shareKey')) props.shareSigningSecret.grantRead(fn);
    if (uses.includes('eventBus')) props.eventBus.grantPutEventsTo(fn);
    // Every handler composes the same services; presigned URLs are signed with
    // the function's own credentials, so it needs the object permissions itself.
    const access = route.access ?? 'jobs';
    props.storage.grantRecords(fn, access === 'readRecords' ? 'read' : 'readWrite');
    // The profile routes touch neither files nor executions (routes.ts `access`).
    if (access === 'jobs') {
      props.storage.grantFiles(fn, 'readWrite');
      props.pipeline.grantStartExecution(fn);
      // Express executions cannot be stopped; only the Standard machine's are.
      grantStopJobExecutions(props.standardPipeline, fn);
    }
    this.handlers[route.handler] = fn;
    return fn;
  }
}
