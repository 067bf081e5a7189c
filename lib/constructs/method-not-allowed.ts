/**
 * 405 method_not_allowed with an `Allow` header for a known path called with a
 * method it does not have (PUT /jobs), as the local runtime answers from the
 * same route table. On its own a REST API answers that like an unknown route;
 * an ANY method on each routed resource, backed by a mock integration, catches
 * every method the resource lacks (explicit methods take precedence over ANY).
 * No Lambda runs and no key is needed, as for an unknown route.
 */
import {
  AuthorizationType,
  MockIntegration,
  PassthroughBehavior,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { ERROR_CODES } from '../../lambdas/domain/errors';
import { REQUEST_ID_HEADERS } from '../../lambdas/api/middleware/request-id';
import { acknowledgePublicMethod } from './nag-acknowledgements';

const STATUS = String(ERROR_CODES.method_not_allowed.status);

/**
 * Request bodies the mock accepts whatever their type; the mock only needs a
 * template that yields its status. Other content types get 415 from the gateway.
 */
const REQUEST_CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
];

export function methodNotAllowedBody(): string {
  return JSON.stringify({
    error: true,
    code: 'method_not_allowed',
    message: ERROR_CODES.method_not_allowed.title,
    requestId: '$context.requestId',
  });
}

/** Adds the ANY method answering 405 to a resource whose routes allow `allowed`. */
export function addMethodNotAllowed(resource: IResource, allowed: readonly string[]): void {
  const allow = [...new Set(allowed)].sort().join(', ');
  const integration = new MockIntegration({
    passthroughBehavior: PassthroughBehavior.NEVER,
    requestTemplates: Object.fromEntries(REQUEST_CONTENT_TYPES.map((t) => [t, `{"statusCode": ${STATUS}}`])),
    integrationResponses: [
      {
        statusCode: STATUS,
        responseTemplates: { 'application/json': methodNotAllowedBody() },
        responseParameters: {
          'method.response.header.Allow': `'${allow}'`,
          ...Object.fromEntries(REQUEST_ID_HEADERS.map((name) => [`method.response.header.${name}`, 'context.requestId'])),
          'method.response.header.Content-Type': "'application/json'",
        },
      },
    ],
  });
  const method = resource.addMethod('ANY', integration, {
    authorizationType: AuthorizationType.NONE,
    methodResponses: [
      {
        statusCode: STATUS,
        responseParameters: {
          'method.response.header.Allow': true,
          ...Object.fromEntries(REQUEST_ID_HEADERS.map((name) => [`method.response.header.${name}`, true])),
          'method.response.header.Content-Type': true,
        },
      },
    ],
  });
  const reason = 'A mock integration that answers 405 with the Allow header and runs no code: like an unknown route, it needs no key (docs/api.md §7).';
  acknowledgePublicMethod(method, reason);
}
