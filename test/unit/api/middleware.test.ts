import { describe, expect, it } from 'vitest';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { ApiError } from '../../../lambdas/domain/errors';
import { caller } from '../../../lambdas/api/middleware/caller';
import { httpErrors } from '../../../lambdas/api/middleware/http-errors';
import { json, type ApiEvent, type ApiResult } from '../../../lambdas/api/middleware/http';
import { jsonBody } from '../../../lambdas/api/middleware/json-body';
import { requestId } from '../../../lambdas/api/middleware/request-id';
import { canonicalJson } from '../../../lambdas/api/middleware/canonical-json';
import { captureLogLines } from '../../support/log-lines';
import { apiMiddleware } from '../../../lambdas/api/middleware/api-middleware';
import { logger } from '../../../lambdas/observability/logger';
import { ACCOUNT_A, apiEvent } from './support/api-client';

/** A handler with the production middleware order and a core the test controls. */
function handlerWith(core: (event: ApiEvent) => Promise<ApiResult>, maxBodyBytes = 1000) {
  return middy<ApiEvent, ApiResult>(core).use([
    requestId(),
    caller(),
    jsonBody({ maxBodyBytes: () => maxBodyBytes }),
    httpErrors(),
  ]);
}

const echo = handlerWith(async (event) => json(200, { body: event.jsonBody ?? null, caller: event.caller }));

async function run(handler: ReturnType<typeof handlerWith>, event: ApiEvent) {
  const result = await handler(event, {} as Context);
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
}

const post = (options: Parameters<typeof apiEvent>[2]) => apiEvent('POST', '/uploads', options) as ApiEvent;

describe('request id', () => {
  it('is on every successful response as x-request-id, and as apigw-requestid where the existing clients read it', async () => {
    const res = await run(echo, post({ body: {}, requestId: 'req-ok' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['x-request-id']).toBe('req-ok');
    expect(res.headers?.['apigw-requestid']).toBe('req-ok');
  });

  it('is on every error response, in the header and in the body', async () => {
    const res = await run(echo, post({ rawBody: '{', requestId: 'req-err' }));
    expect(res.statusCode).toBe(400);
    expect(res.headers?.['x-request-id']).toBe('req-err');
    expect(res.headers?.['apigw-requestid']).toBe('req-err');
    expect(res.json.requestId).toBe('req-err');
  });

  it('is invented when the event has none, and used consistently', async () => {
    const event = post({ rawBody: '{' });
    (event.requestContext as { requestId?: string }).requestId = '';
    const res = await run(echo, event);
    expect(res.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json.requestId).toBe(res.headers?.['x-request-id']);
  });
});

describe('caller', () => {
  it('takes accountId, keyId and role from the authoriser context', async () => {
    const res = await run(echo, post({ body: {}, caller: { accountId: 'acct-x', keyId: 'key_x', role: 'admin' } }));
    expect(res.json.caller).toEqual({ accountId: 'acct-x', keyId: 'key_x', role: 'admin' });
  });

  it('treats any role but admin as standard', async () => {
    const event = post({ body: {} });
    (event.requestContext.authorizer as Record<string, string>).role = 'superuser';
    const res = await run(echo, event);
    expect(res.json.caller.role).toBe('standard');
  });

  it('answers 401 unauthorized with WWW-Authenticate: Bearer when the authoriser context is missing', async () => {
    const res = await run(echo, post({ body: {}, caller: null }));
    expect(res.statusCode).toBe(401);
    expect(res.headers?.['WWW-Authenticate']).toBe('Bearer');
    expect(res.json).toMatchObject({ error: true, code: 'unauthorized' });
  });

  it('answers 401 when the context lacks the account', async () => {
    const event = post({ body: {} });
    event.requestContext.authorizer = { keyId: 'key_x', role: 'standard' };
    expect((await run(echo, event)).statusCode).toBe(401);
  });
});

describe('JSON body', () => {
  it('parses a JSON body, charset parameter allowed', async () => {
    const res = await run(echo, post({ body: { a: 1 }, headers: { 'content-type': 'application/json; charset=utf-8' } }));
    expect(res.statusCode).toBe(200);
    expect(res.json.body).toEqual({ a: 1 });
  });

  it('decodes a base64-encoded body first', async () => {
    const res = await run(echo, post({ body: { b: 'é' }, base64: true }));
    expect(res.json.body).toEqual({ b: 'é' });
  });

  it('refuses a body that is not declared JSON with 415 unsupported_media_type', async () => {
    const res = await run(echo, post({ rawBody: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }));
    expect(res.statusCode).toBe(415);
    expect(res.json.code).toBe('unsupported_media_type');
  });

  it('refuses a POST without Content-Type with 415', async () => {
    const event = post({ body: {} });
    event.headers = {};
    expect((await run(echo, event)).statusCode).toBe(415);
  });

  it('answers 400 invalid_json for a body that does not parse', async () => {
    const res = await run(echo, post({ rawBody: '{"a":' }));
    expect(res.statusCode).toBe(400);
    expect(res.json.code).toBe('invalid_json');
  });

  it('answers 413 payload_too_large over the limit, pointing at POST /uploads', async () => {
    const res = await run(handlerWith(async () => json(200, {}), 10), post({ body: { file: 'x'.repeat(20) } }));
    expect(res.statusCode).toBe(413);
    expect(res.json.code).toBe('payload_too_large');
    expect(res.json.message).toContain('POST /uploads');
  });

  it('leaves an empty body undefined for the schema to judge', async () => {
    const res = await run(echo, post({ rawBody: '' }));
    expect(res.json.body).toBeNull();
  });
});

describe('http errors', () => {
  it('turns an ApiError into the contract body with its status, param and headers', async () => {
    const h = handlerWith(async () => {
      throw new ApiError('rate_limited', 'Slow down.', undefined, { 'Retry-After': '3' });
    });
    const res = await run(h, post({ body: {}, requestId: 'r1' }));
    expect(res.statusCode).toBe(429);
    expect(res.headers?.['Retry-After']).toBe('3');
    expect(res.json).toEqual({ error: true, code: 'rate_limited', message: 'Slow down.', requestId: 'r1' });
  });

  it('turns a zod error into 400 validation_error naming the dotted, indexed path', async () => {
    const schema = z.strictObject({ sources: z.array(z.strictObject({ url: z.string() })) });
    const h = handlerWith(async (event) => json(200, schema.parse(event.jsonBody)));
    const res = await run(h, post({ body: { sources: [{ url: 'a' }, { url: 3 }] } }));
    expect(res.statusCode).toBe(400);
    expect(res.json).toMatchObject({ code: 'validation_error', param: 'sources[1].url' });
    expect(res.json.message).toMatch(/^sources\[1\]\.url: /);
  });

  it('names an unknown field as the param', async () => {
    const schema = z.strictObject({ a: z.string().optional() });
    const h = handlerWith(async (event) => json(200, schema.parse(event.jsonBody)));
    const res = await run(h, post({ body: { bogus: 1 } }));
    expect(res.json).toMatchObject({ code: 'validation_error', param: 'bogus', message: 'bogus: unknown field' });
  });

  it('hides internals of unexpected errors behind 500 internal_error and logs them with the request id', async () => {
    const log = captureLogLines();
    const h = handlerWith(async () => {
      throw new Error('secret database password is hunter2');
    });
    const res = await run(h, post({ body: {}, requestId: 'r500' }));
    log.restore();
    expect(res.statusCode).toBe(500);
    expect(res.json).toEqual({ error: true, code: 'internal_error', message: expect.any(String), requestId: 'r500' });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('at ');
    expect(log.lines()).toEqual([expect.objectContaining({ level: 'ERROR', message: 'unhandled error', requestId: 'r500', error: expect.objectContaining({ stack: expect.any(String) }) })]);
  });
});

describe('canonical JSON', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe('logs of an API invocation (observability middleware)', () => {
  const context = { awsRequestId: 'lambda-req-1', functionName: 'proofline-get-job', invokedFunctionArn: 'arn:aws:lambda:us-east-1:1:function:proofline-get-job', memoryLimitInMB: '512' } as Context;
  const logging = middy<ApiEvent, ApiResult>(async () => {
    logger.info('inside the handler');
    return json(200, {});
  }).use(apiMiddleware());

  it("puts the request's id, the caller's account and the job of a /jobs/{id} route on every line, and the Lambda context", async () => {
    const log = captureLogLines();
    await logging(apiEvent('GET', '/jobs/job_01h00000000000000000000000', { requestId: 'req-jobs' }) as ApiEvent, context);
    log.restore();
    expect(log.lines()).toEqual([
      expect.objectContaining({ message: 'inside the handler', requestId: 'req-jobs', accountId: ACCOUNT_A.accountId, jobId: 'job_01h00000000000000000000000', function_request_id: 'lambda-req-1' }),
    ]);
  });

  it('drops them when the invocation ends: a line after it carries none of them', async () => {
    const log = captureLogLines();
    await logging(apiEvent('GET', '/jobs/job_01h00000000000000000000000', { requestId: 'req-first' }) as ApiEvent, context);
    logger.info('between invocations');
    log.restore();
    const between = log.lines().at(-1)!;
    expect(between).not.toHaveProperty('jobId');
    expect(between).not.toHaveProperty('accountId');
    expect(between).not.toHaveProperty('requestId');
  });
});
