/**
 * The API Gateway TOKEN authoriser in front of every authenticated route (and
 * the local runtime, which calls this same handler and caches its answers the
 * way API Gateway does).
 *
 * A valid key yields an Allow policy on the whole API (every stage route), not
 * on the one method asked about: API Gateway caches the policy per token, and a
 * policy naming one route would make the cached answer deny every other route.
 * Anything else is `Error('Unauthorized')`, which API Gateway turns into 401; a
 * store failure is logged (never the key) and rethrown as itself so it
 * surfaces as a 500, not as a bad key.
 */
import '../platform/polyfills';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';
import { authenticate } from '../domain/keys';
import { services } from '../platform/services';
import { asError, logger } from '../observability/logger';
import { withInvocationLog } from '../observability/invocation';

const BEARER_RE = /^\s*Bearer\s+(\S+)\s*$/i;

/** The secret of an `Authorization: Bearer <secret>` value, or null. */
export function bearerSecret(authorization: string | undefined | null): string | null {
  if (typeof authorization !== 'string') return null;
  const m = BEARER_RE.exec(authorization);
  return m ? m[1]! : null;
}

/**
 * `arn:aws:execute-api:region:account:apiId/stage/METHOD/path` →
 * `arn:aws:execute-api:region:account:apiId/stage/*`.
 */
export function apiWildcardArn(methodArn: string): string {
  const parts = methodArn.split('/');
  if (parts.length < 2) return `${methodArn}/*`;
  return `${parts[0]}/${parts[1]}/*`;
}

function unauthorized(): Error {
  return new Error('Unauthorized');
}

export function handler(event: APIGatewayTokenAuthorizerEvent, context?: Partial<Context>): Promise<APIGatewayAuthorizerResult> {
  return withInvocationLog(context, {}, () => authorize(event));
}

async function authorize(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const secret = bearerSecret(event?.authorizationToken);
  if (!secret) throw unauthorized();
  const { keys, config } = services();
  let caller: Awaited<ReturnType<typeof authenticate>>;
  try {
    caller = await authenticate(keys, secret, config.devApiKey);
  } catch (err) {
    // The key store failed, not the key: an operator's problem, logged without the key.
    logger.error({ message: 'key check failed' }, asError(err));
    throw err;
  }
  if (!caller) throw unauthorized();
  return {
    principalId: caller.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: apiWildcardArn(String(event.methodArn ?? '')) }],
    },
    context: { accountId: caller.accountId, keyId: caller.keyId, role: caller.role },
  };
}
