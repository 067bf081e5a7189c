/**
 * Calls the API's handler modules the way API Gateway does: a hand-built REST
 * proxy event (route matched with the same table, authoriser context set as
 * the token authoriser sets it) passed to the module's `handler`. Responses
 * come back with the body parsed, for assertions.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '../../../../lambdas/domain/model';
import { matchRoute } from '../../../../lambdas/api/routes';

export interface CallOptions {
  /** A value is sent as JSON; a string as is. */
  body?: unknown;
  rawBody?: string;
  base64?: boolean;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** null: no authoriser context at all. */
  caller?: Caller | null;
  requestId?: string;
  /** When the request reached the gateway (requestContext.requestTimeEpoch), epoch ms. */
  arrivedAt?: number;
  /** The function's remaining time (context.getRemainingTimeInMillis), from the call on. */
  remainingMs?: number;
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  raw: string;
}

export const ACCOUNT_A: Caller = { accountId: 'acct-a', keyId: 'key_01jabcdefghjkmnpqrstvwxyz0', role: 'standard' };
export const ACCOUNT_B: Caller = { accountId: 'acct-b', keyId: 'key_01jbbcdefghjkmnpqrstvwxyz0', role: 'standard' };
export const ADMIN_A: Caller = { accountId: 'acct-a', keyId: 'key_01jcbcdefghjkmnpqrstvwxyz0', role: 'admin' };

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

type HandlerModule = Promise<{ handler: unknown }>;

/** Every handler module of ROUTES (a test checks none is missing). */
export const HANDLER_MODULES: Record<string, () => HandlerModule> = {
  health: () => import('../../../../lambdas/api/health'),
  openapi: () => import('../../../../lambdas/api/openapi'),
  'create-job': () => import('../../../../lambdas/api/create-job'),
  'create-preflight-job': () => import('../../../../lambdas/api/create-preflight-job'),
  'create-fix-job': () => import('../../../../lambdas/api/create-fix-job'),
  'create-validate-job': () => import('../../../../lambdas/api/create-validate-job'),
  'create-previews-job': () => import('../../../../lambdas/api/create-previews-job'),
  'create-optimize-job': () => import('../../../../lambdas/api/create-optimize-job'),
  'list-jobs': () => import('../../../../lambdas/api/list-jobs'),
  'get-job': () => import('../../../../lambdas/api/get-job'),
  'delete-job': () => import('../../../../lambdas/api/delete-job'),
  'review-job': () => import('../../../../lambdas/api/review-job'),
  'share-job': () => import('../../../../lambdas/api/share-job'),
  'revoke-share': () => import('../../../../lambdas/api/revoke-share'),
  'get-shared-job': () => import('../../../../lambdas/api/get-shared-job'),
  'decide-shared-job': () => import('../../../../lambdas/api/decide-shared-job'),
  'create-upload': () => import('../../../../lambdas/api/create-upload'),
  'list-profiles': () => import('../../../../lambdas/api/list-profiles'),
  'get-profile': () => import('../../../../lambdas/api/get-profile'),
  'create-profile': () => import('../../../../lambdas/api/create-profile'),
  'replace-profile': () => import('../../../../lambdas/api/replace-profile'),
  'delete-profile': () => import('../../../../lambdas/api/delete-profile'),
};

export function apiEvent(method: string, pathWithQuery: string, options: CallOptions = {}): APIGatewayProxyEvent {
  const [path] = pathWithQuery.split('?');
  const match = matchRoute(method, path!);
  if (!match.route) throw new Error(`no route for ${method} ${path}`);
  const caller = options.caller === undefined ? ACCOUNT_A : options.caller;
  const hasBody = options.rawBody !== undefined || options.body !== undefined;
  const text = options.rawBody ?? (typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    ...options.headers,
  };
  return {
    httpMethod: method,
    path: path!,
    resource: match.route.path,
    pathParameters: Object.keys(match.params).length > 0 ? match.params : null,
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: null,
    headers,
    multiValueHeaders: {},
    body: hasBody ? (options.base64 ? Buffer.from(text!, 'utf8').toString('base64') : text!) : null,
    isBase64Encoded: options.base64 === true,
    stageVariables: null,
    requestContext: {
      requestId: options.requestId ?? randomUUID(),
      authorizer: caller ? { accountId: caller.accountId, keyId: caller.keyId, role: caller.role } : null,
      httpMethod: method,
      path: path!,
      resourcePath: match.route.path,
      ...(options.arrivedAt !== undefined ? { requestTimeEpoch: options.arrivedAt } : {}),
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

export async function invoke(event: APIGatewayProxyEvent, remainingMs?: number): Promise<CallResult> {
  const match = matchRoute(event.httpMethod, event.path);
  if (!match.route) throw new Error(`no route for ${event.httpMethod} ${event.path}`);
  const load = HANDLER_MODULES[match.route.handler];
  if (!load) throw new Error(`no handler module for ${match.route.handler}`);
  const handler = (await load()).handler as Handler;
  const deadline = remainingMs === undefined ? undefined : Date.now() + remainingMs;
  const context = (deadline === undefined ? {} : { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) }) as Context;
  const result = await handler(event, context);
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  let body: unknown = undefined;
  try {
    body = result.body ? JSON.parse(result.body) : undefined;
  } catch {
    body = result.body;
  }
  return { status: result.statusCode, headers, body, raw: result.body };
}

export function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  return invoke(apiEvent(method, path, options), options.remainingMs);
}
