/**
 * The HTTP vocabulary every handler and middleware shares: the event as the
 * middleware leaves it (caller identified, JSON body parsed), case-insensitive
 * header lookup, and the one way a JSON response is written.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Caller } from '../../domain/model';

/** An API Gateway REST proxy event after the middleware ran. */
export interface ApiEvent extends APIGatewayProxyEvent {
  /** Set by the caller middleware on authenticated routes. */
  caller?: Caller;
  /** Set by the json-body middleware on POST routes: the parsed body (undefined when empty). */
  jsonBody?: unknown;
}

export type ApiResult = APIGatewayProxyResult;

/** Header names are case-insensitive; API Gateway passes them as the client sent them. */
export function header(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined && value !== null) return value;
  }
  return undefined;
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      // Responses carry presigned URLs and per-account data: no shared caches.
      'cache-control': 'no-store',
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

/** The caller the caller middleware identified; handlers of authenticated routes only. */
export function callerOf(event: ApiEvent): Caller {
  if (!event.caller) throw new Error('callerOf: the caller middleware did not run for this route');
  return event.caller;
}
