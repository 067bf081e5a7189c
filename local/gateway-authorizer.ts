/**
 * API Gateway's side of a TOKEN authoriser, for the local front door: it calls
 * the same authoriser handler the cloud calls (lambdas/api/authorizer.ts) with
 * the Authorization header as the token, caches an answer per token for
 * config.authCacheTtlSeconds, and evaluates the returned IAM policy against the
 * request's method ARN on every request, cached or not, as API Gateway does.
 *
 * Outcomes, as API Gateway answers them:
 * - no token → unauthorized without calling the authoriser;
 * - the authoriser throws `Unauthorized` → unauthorized;
 * - the policy does not allow this method ARN (or denies it) → forbidden;
 * - the authoriser fails otherwise → failure (500);
 * - it returns something that is not a policy → misconfigured (503).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { inInvocationScope } from './invocation-scope';

export type AuthorizerHandler = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export type AuthorizationOutcome =
  | { kind: 'allowed'; principalId: string; context: Record<string, string> }
  | { kind: 'unauthorized' }
  | { kind: 'forbidden' }
  | { kind: 'failure'; error: unknown }
  | { kind: 'misconfigured'; error: unknown };

export interface GatewayAuthorizer {
  authorize(token: string | undefined, methodArn: string): Promise<AuthorizationOutcome>;
}

interface Cached {
  result: APIGatewayAuthorizerResult;
  until: number;
}

export function createGatewayAuthorizer(opts: {
  handler: () => Promise<AuthorizerHandler>;
  ttlSeconds: number;
  now?: () => number;
}): GatewayAuthorizer {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Cached>();

  return {
    async authorize(token, methodArn) {
      if (token === undefined || token.trim() === '') return { kind: 'unauthorized' };
      let result = cache.get(token);
      if (!result || result.until <= now()) {
        cache.delete(token);
        let answer: unknown;
        try {
          const handler = await opts.handler();
          // In a scope of its own, as every invocation in this thread (invocation-scope.ts).
          answer = await inInvocationScope(randomUUID(), () => handler({ type: 'TOKEN', authorizationToken: token, methodArn }));
        } catch (error) {
          if (error instanceof Error && error.message === 'Unauthorized') return { kind: 'unauthorized' };
          return { kind: 'failure', error };
        }
        if (!isAuthorizerResult(answer)) return { kind: 'misconfigured', error: new Error('The authoriser returned no policy document') };
        result = { result: answer, until: now() + opts.ttlSeconds * 1000 };
        if (opts.ttlSeconds > 0) cache.set(token, result);
      }
      if (!policyAllows(result.result.policyDocument, methodArn)) return { kind: 'forbidden' };
      return { kind: 'allowed', principalId: result.result.principalId, context: stringContext(result.result.context) };
    },
  };
}

function isAuthorizerResult(v: unknown): v is APIGatewayAuthorizerResult {
  const r = v as APIGatewayAuthorizerResult;
  return typeof r?.principalId === 'string' && Array.isArray(r.policyDocument?.Statement);
}

/** API Gateway hands authoriser context values to the integration as strings. */
function stringContext(context: Record<string, unknown> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(context ?? {}).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, String(v)]));
}

/** An explicit Deny wins; otherwise some Allow must cover execute-api:Invoke on the ARN. */
export function policyAllows(policy: APIGatewayAuthorizerResult['policyDocument'], methodArn: string): boolean {
  let allowed = false;
  for (const statement of policy.Statement as unknown as Record<string, unknown>[]) {
    const actions = list(statement.Action);
    const resources = list(statement.Resource);
    // IAM action names are case-insensitive, resource ARNs are not.
    const applies =
      actions.some((a) => wildcardMatch(a.toLowerCase(), 'execute-api:invoke')) && resources.some((r) => wildcardMatch(r, methodArn));
    if (!applies) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** IAM wildcards: `*` any run of characters, `?` one character. */
function wildcardMatch(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  return re.test(value);
}
