/**
 * The public API as synthesized (bundling skipped, one synth for the file):
 * routes, the token authoriser, 405 catch-alls, the stage, and the gateway's
 * own error answers in the contract's shape (docs/api.md §7).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { AUTHORIZER_ENTRY, ROUTES, routeEntry } from '../../lambdas/api/routes';
import { ERROR_CODES } from '../../lambdas/domain/errors';
import { Api } from '../../lib/constructs/api';
import { Storage } from '../../lib/constructs/storage';
import { CDK_CONTEXT, PLACEHOLDER_ENTRY, synthProofline, TEST_ENV } from './support/synth';
import {
  functionIdByEntry,
  functionIdInIntegrationUri,
  allowedActions,
  methodPath,
  mentions,
  refId,
  resource,
  resourcesOfType,
  roleIdOfFunction,
  statementsOfRole,
  statementsWith,
  type CfnResource,
} from './support/template-queries';

let template: Template;
let methods: [string, CfnResource][];
let responses: Map<string, CfnResource>;

beforeAll(() => {
  ({ template } = synthProofline());
  methods = resourcesOfType(template, 'AWS::ApiGateway::Method');
  responses = new Map(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties.ResponseType, r]));
});

const methodFor = (httpMethod: string, path: string): CfnResource | undefined =>
  methods.map(([, m]) => m).find((m) => m.Properties.HttpMethod === httpMethod && methodPath(template, m) === path);

describe('the REST API', () => {
  it('is one regional REST API', () => {
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
  });

  it.each(ROUTES.map((r) => [r.method, r.path, r] as const))('has %s %s invoking its own handler module through a Lambda proxy', (method, path, route) => {
    const m = methodFor(method, path);
    expect(m, `${method} ${path}`).toBeDefined();
    expect(m!.Properties.Integration.Type).toBe('AWS_PROXY');
    expect(functionIdInIntegrationUri(m!.Properties.Integration.Uri)).toBe(functionIdByEntry(template, routeEntry(route)));
  });

  it('has no method that is not a route, apart from the 405 catch-alls', () => {
    const routed = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    const others = methods.map(([, m]) => `${m.Properties.HttpMethod} ${methodPath(template, m)}`).filter((k) => !routed.has(k));
    expect(others.every((k) => k.startsWith('ANY '))).toBe(true);
  });

  it('puts the token authoriser on every route that needs a key, and on no other', () => {
    const [authorizerId] = resourcesOfType(template, 'AWS::ApiGateway::Authorizer')[0]!;
    for (const route of ROUTES) {
      const m = methodFor(route.method, route.path)!;
      if (route.auth) {
        expect(m.Properties.AuthorizationType, route.path).toBe('CUSTOM');
        expect(refId(m.Properties.AuthorizerId), route.path).toBe(authorizerId);
      } else {
        expect(m.Properties.AuthorizationType, route.path).toBe('NONE');
        expect(m.Properties.AuthorizerId, route.path).toBeUndefined();
      }
    }
  });

  it('leaves GET /health and GET /openapi.json public', () => {
    expect(methodFor('GET', '/health')!.Properties.AuthorizationType).toBe('NONE');
    expect(methodFor('GET', '/openapi.json')!.Properties.AuthorizationType).toBe('NONE');
  });

  it('sizes each route function as the route table says', () => {
    for (const route of ROUTES) {
      const fn = resource(template, functionIdByEntry(template, routeEntry(route)));
      expect(fn.Properties.MemorySize, route.handler).toBe(route.memoryMb);
      expect(fn.Properties.Timeout, route.handler).toBe(route.timeoutSeconds);
    }
  });

  it('gives route functions the table, bucket, pipeline, cloud network mode and key cache TTL', () => {
    const fn = resource(template, functionIdByEntry(template, 'lambdas/api/create-job.ts'));
    const env = fn.Properties.Environment.Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME', 'STATE_MACHINE_ARN', 'NETWORK_MODE', 'AUTH_CACHE_TTL_SECONDS']),
    );
    expect(env.NETWORK_MODE).toBe('cloud');
    const [pipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineJobPipeline'))!;
    expect(refId(env.STATE_MACHINE_ARN)).toBe(pipelineId);
  });
});

describe('the token authoriser', () => {
  it('reads the Authorization header and runs the authoriser module', () => {
    const [, authorizer] = resourcesOfType(template, 'AWS::ApiGateway::Authorizer')[0]!;
    expect(authorizer.Properties.Type).toBe('TOKEN');
    expect(authorizer.Properties.IdentitySource).toBe('method.request.header.Authorization');
    expect(functionIdInIntegrationUri(authorizer.Properties.AuthorizerUri)).toBe(functionIdByEntry(template, AUTHORIZER_ENTRY));
  });

  it('caches verdicts at most 30 s, the TTL the functions are told, so a revoked key stops within 60 s', () => {
    const [, authorizer] = resourcesOfType(template, 'AWS::ApiGateway::Authorizer')[0]!;
    const gatewayTtl = authorizer.Properties.AuthorizerResultTtlInSeconds as number;
    expect(gatewayTtl).toBeGreaterThan(0);
    expect(gatewayTtl).toBeLessThanOrEqual(30);
    for (const entry of [AUTHORIZER_ENTRY, ...ROUTES.map(routeEntry)]) {
      const fn = resource(template, functionIdByEntry(template, entry));
      expect(fn.Properties.Environment.Variables.AUTH_CACHE_TTL_SECONDS, entry).toBe(String(gatewayTtl));
    }
  });

  it('refuses a cache TTL that would let a revoked key live longer than 60 s', () => {
    const app = new App({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'TtlCheck', { env: TEST_ENV });
    const storage = new Storage(stack, 'Storage');
    const pipeline = StateMachine.fromStateMachineName(stack, 'Pipeline', 'jobs');
    expect(
      () =>
        new Api(stack, 'Api', {
          storage,
          pipeline,
          standardPipeline: pipeline,
          shareSigningSecret: Secret.fromSecretNameV2(stack, 'ShareKey', 'share-key'),
          eventBus: EventBus.fromEventBusName(stack, 'Bus', 'bus'),
          authCacheTtlSeconds: 90,
          resolveEntry: () => PLACEHOLDER_ENTRY,
        }),
    ).toThrow(/from 0 to 60/);
  });
});

describe('share links (docs/api.md §3, Share links)', () => {
  const secretId = () => resourcesOfType(template, 'AWS::SecretsManager::Secret')[0]![0];
  const functionOf = (route: (typeof ROUTES)[number]) => functionIdByEntry(template, routeEntry(route));

  it('signs them with a key Secrets Manager generates, never written in the template', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: { PasswordLength: 64 } });
    expect(JSON.stringify(template.toJSON())).not.toMatch(/SHARE_SIGNING_KEY/);
  });

  it.each(ROUTES.map((r) => [r.method, r.path, r] as const))('%s %s may read the key only when it signs or checks links', (_, __, route) => {
    const fn = resource(template, functionOf(route));
    const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
    const reads = statementsWith(statementsOfRole(template, roleIdOfFunction(template, functionOf(route))), 'secretsmanager:GetSecretValue').some((st) => mentions(st.Resource ?? null, secretId()));
    const uses = route.uses?.includes('shareKey') === true;
    expect(reads, route.handler).toBe(uses);
    expect(mentions(variables.SHARE_SIGNING_SECRET_ARN ?? null, secretId()), route.handler).toBe(uses);
  });

  it('lets POST /share/decision, and no other route, publish on the job events bus, where a rule sends decisions to the webhook caller', () => {
    const busId = resourcesOfType(template, 'AWS::Events::EventBus')[0]![0];
    for (const route of ROUTES) {
      const publishes = allowedActions(statementsOfRole(template, roleIdOfFunction(template, functionOf(route)))).has('events:PutEvents');
      expect(publishes, route.handler).toBe(route.handler === 'decide-shared-job');
    }
    const decide = resource(template, functionOf(ROUTES.find((r) => r.handler === 'decide-shared-job')!));
    expect(mentions(decide.Properties.Environment.Variables.EVENT_BUS_NAME, busId)).toBe(true);
    const [, rule] = resourcesOfType(template, 'AWS::Events::Rule').find(([, r]) => r.Properties.EventPattern['detail-type']?.[0] === 'Job Decision')!;
    expect(rule.Properties.EventPattern).toEqual({ source: ['proofline.jobs'], 'detail-type': ['Job Decision'], detail: { hasWebhook: [true] } });
    expect(mentions(rule.Properties.Targets, functionIdByEntry(template, 'lambdas/webhooks/caller.ts'))).toBe(true);
  });
});

describe('methods a path does not have', () => {
  const paths = [...new Set(ROUTES.map((r) => r.path))];

  it.each(paths)('%s answers any other method with 405 method_not_allowed and an Allow header', (path) => {
    const any = methodFor('ANY', path);
    expect(any).toBeDefined();
    expect(any!.Properties.AuthorizationType).toBe('NONE');
    const integration = any!.Properties.Integration;
    expect(integration.Type).toBe('MOCK');
    const response = integration.IntegrationResponses[0];
    expect(response.StatusCode).toBe('405');
    const allowed = ROUTES.filter((r) => r.path === path).map((r) => r.method).sort().join(', ');
    expect(response.ResponseParameters['method.response.header.Allow']).toBe(`'${allowed}'`);
    expect(response.ResponseParameters['method.response.header.x-request-id']).toBe('context.requestId');
    expect(response.ResponseParameters['method.response.header.apigw-requestid']).toBe('context.requestId');
    const body = JSON.parse(response.ResponseTemplates['application/json'].replace('$context.requestId', 'req-1'));
    expect(body).toEqual({ error: true, code: 'method_not_allowed', message: expect.any(String), requestId: 'req-1' });
  });
});

describe('the stage', () => {
  it('throttles every method (rate 100, burst 200 by default) and traces requests', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      TracingEnabled: true,
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 }),
      ]),
    });
  });

  it('takes other throttling limits from the stack props', () => {
    const custom = synthProofline({ stackProps: { throttlingRateLimit: 7, throttlingBurstLimit: 9, stageName: 'live' } }).template;
    custom.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'live',
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 })]),
    });
  });
});

/**
 * What docs/api.md §7 asks of each answer the gateway gives itself. `status`
 * undefined: the catch-alls keep the status the gateway chose.
 */
const EXPECTED: { type: string; status?: number; code: string; headers?: Record<string, string> }[] = [
  { type: 'UNAUTHORIZED', status: 401, code: 'unauthorized', headers: { 'WWW-Authenticate': "'Bearer'" } },
  { type: 'ACCESS_DENIED', status: 403, code: 'forbidden' },
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, code: 'route_not_found' },
  { type: 'RESOURCE_NOT_FOUND', status: 404, code: 'route_not_found' },
  { type: 'REQUEST_TOO_LARGE', status: 413, code: 'payload_too_large' },
  { type: 'THROTTLED', status: 429, code: 'rate_limited', headers: { 'Retry-After': "'1'" } },
  { type: 'QUOTA_EXCEEDED', status: 429, code: 'rate_limited', headers: { 'Retry-After': "'60'" } },
  { type: 'UNSUPPORTED_MEDIA_TYPE', status: 415, code: 'unsupported_media_type' },
  { type: 'BAD_REQUEST_BODY', status: 400, code: 'validation_error' },
  { type: 'BAD_REQUEST_PARAMETERS', status: 400, code: 'validation_error' },
  { type: 'AUTHORIZER_FAILURE', status: 500, code: 'internal_error' },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 503, code: 'service_unavailable' },
  { type: 'INTEGRATION_FAILURE', status: 502, code: 'bad_gateway' },
  { type: 'INTEGRATION_TIMEOUT', status: 504, code: 'gateway_timeout' },
  { type: 'DEFAULT_4XX', code: 'validation_error' },
  { type: 'DEFAULT_5XX', code: 'internal_error' },
];

/** The body API Gateway would send: `$context` variables substituted as the gateway does. */
function renderBody(r: CfnResource, requestId: string): Record<string, unknown> {
  const template = r.Properties.ResponseTemplates['application/json'] as string;
  return JSON.parse(
    template
      .replaceAll('$context.requestId', requestId)
      .replaceAll('$context.error.messageString', JSON.stringify('Missing "Authentication" Token')),
  );
}

describe('gateway responses', () => {
  it('cover every answer API Gateway produces itself, and nothing else', () => {
    expect([...responses.keys()].sort()).toEqual(EXPECTED.map((e) => e.type).sort());
  });

  it.each(EXPECTED)('$type answers $status with code $code in the contract error shape', ({ type, status, code }) => {
    const r = responses.get(type)!;
    expect(r.Properties.StatusCode).toBe(status === undefined ? undefined : String(status));
    if (status !== undefined) expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status).toBe(status);
    expect(Object.keys(ERROR_CODES)).toContain(code);

    const raw = r.Properties.ResponseTemplates['application/json'] as string;
    expect(raw).toContain(`"code":"${code}"`);
    expect(raw).toContain('$context.requestId');
    const body = renderBody(r, 'a1b2c3');
    expect(body).toEqual({ error: true, code, message: expect.any(String), requestId: 'a1b2c3' });
    expect((body.message as string).length).toBeGreaterThan(0);
  });

  it.each(EXPECTED)('$type carries the request id in x-request-id and apigw-requestid', ({ type }) => {
    expect(responses.get(type)!.Properties.ResponseParameters['gatewayresponse.header.x-request-id']).toBe('context.requestId');
    expect(responses.get(type)!.Properties.ResponseParameters['gatewayresponse.header.apigw-requestid']).toBe('context.requestId');
  });

  it.each(EXPECTED.filter((e) => e.headers))('$type sends $headers', ({ type, headers }) => {
    const params = responses.get(type)!.Properties.ResponseParameters;
    for (const [name, value] of Object.entries(headers!)) expect(params[`gatewayresponse.header.${name}`]).toBe(value);
  });

  it('tells a client whose body is too large to upload with POST /uploads', () => {
    expect(renderBody(responses.get('REQUEST_TOO_LARGE')!, 'r').message).toMatch(/POST \/uploads/);
  });

  it('passes the gateway’s own message through the catch-all for other client errors, escaped as JSON', () => {
    const body = renderBody(responses.get('DEFAULT_4XX')!, 'r');
    expect(body.message).toBe('Missing "Authentication" Token');
  });
});
