/**
 * Builds what a route handler receives in the cloud: the API Gateway REST
 * proxy event (headers as the client sent them, single and multi-value forms,
 * decoded query parameters, path parameters, the authoriser context as
 * strings, the request id) and a Lambda context. Handlers therefore run
 * locally on exactly the input shape they get from API Gateway.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '../lambdas/adapters/local/asl-definition';

export const LOCAL_API_ID = 'local';
export const LOCAL_STAGE = 'local';

/** What the gateway knows about a request once it read it. */
export interface GatewayRequest {
  method: string;
  /** Path without the query string, as received. */
  path: string;
  rawQuery: string;
  /** Alternating names and values, in the client's spelling (node's rawHeaders). */
  rawHeaders: string[];
  body: Buffer;
  sourceIp: string;
  requestId: string;
  receivedAt: Date;
}

export const methodArn = (method: string, path: string): string =>
  `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${LOCAL_API_ID}/${LOCAL_STAGE}/${method}/${path.replace(/^\/+/, '')}`;

/** Bodies API Gateway passes as text; anything else is base64 (binary media types). */
const TEXT_TYPES = /^(text\/|application\/([a-z0-9.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

export function buildProxyEvent(
  req: GatewayRequest,
  route: { path: string; params: Record<string, string> },
  authorizer: { principalId: string; context: Record<string, string> } | null,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }

  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(req.rawQuery)) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }

  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const text = req.body.length > 0 && TEXT_TYPES.test(contentType) && isUtf8(req.body);
  const hasParams = Object.keys(route.params).length > 0;
  const userAgent = Object.entries(headers).find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? null;
  const host = Object.entries(headers).find(([k]) => k.toLowerCase() === 'host')?.[1] ?? '127.0.0.1';

  return {
    resource: route.path,
    path: req.path,
    httpMethod: req.method,
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: hasParams ? { ...route.params } : null,
    stageVariables: null,
    body: req.body.length === 0 ? null : text ? req.body.toString('utf8') : req.body.toString('base64'),
    isBase64Encoded: req.body.length > 0 && !text,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: LOCAL_API_ID,
      authorizer: authorizer ? { ...authorizer.context, principalId: authorizer.principalId, integrationLatency: 0 } : null,
      domainName: host,
      domainPrefix: host.split('.')[0],
      extendedRequestId: req.requestId,
      httpMethod: req.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: req.sourceIp,
        user: null,
        userAgent,
        userArn: null,
      },
      path: `/${LOCAL_STAGE}${req.path}`,
      protocol: 'HTTP/1.1',
      requestId: req.requestId,
      requestTime: apiGatewayTime(req.receivedAt),
      requestTimeEpoch: req.receivedAt.getTime(),
      resourceId: LOCAL_API_ID,
      resourcePath: route.path,
      stage: LOCAL_STAGE,
    },
  };
}

export function lambdaContext(functionName: string, requestId: string, timeoutMs: number, memoryMb: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `09/Apr/2015:12:34:56 +0000`, API Gateway's requestTime format. */
function apiGatewayTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
