import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../lambdas/domain/errors';
import { ROUTES } from '../../../lambdas/api/routes';
import { buildOpenApiDocument, renderOpenApiDocument } from '../../../lambdas/api/openapi/document';
import { call, HANDLER_MODULES } from './support/api-client';

const COMMITTED = fileURLToPath(new URL('../../../lambdas/api/openapi.json', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(() => {
  doc = buildOpenApiDocument();
});

function resolve(ref: string): unknown {
  expect(ref.startsWith('#/')).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is committed as generated: run `npm run openapi` after changing schemas or routes', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('is OpenAPI 3.1 with bearer security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route of the route table, and only those', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('marks the public routes as needing no key and the others as answering 401', () => {
    for (const route of ROUTES) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      if (route.auth) {
        expect(op.security, route.path).toBeUndefined();
        expect(op.responses['401'], route.path).toBeDefined();
      } else {
        expect(op.security, route.path).toEqual([]);
      }
    }
  });

  it('takes the Idempotency-Key header on every authenticated POST', () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST' && r.auth)) {
      const op = doc.paths[route.path].post;
      expect(op.parameters, route.path).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      expect(op.requestBody.content['application/json'].schema.$ref, route.path).toMatch(/^#\/components\/schemas\//);
    }
    expect(doc.components.parameters.IdempotencyKey.schema.maxLength).toBe(255);
  });

  it('lists every error code with its status and meaning, and the error body shape', () => {
    expect(doc['x-error-codes']).toEqual(Object.entries(ERROR_CODES).map(([code, { status, title }]) => ({ code, status, meaning: title })));
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    expect(doc.components.schemas.Error.required.sort()).toEqual(['code', 'error', 'message', 'requestId']);
    for (const code of Object.keys(ERROR_CODES)) expect(doc.info.description).toContain(`\`${code}\``);
    for (const { status } of Object.values(ERROR_CODES)) {
      const shared = Object.values(doc.components.responses) as { description: string }[];
      expect(shared.some((r) => Object.entries(ERROR_CODES).some(([code, c]) => c.status === status && r.description.includes(code))), String(status)).toBe(true);
    }
  });

  it('describes the sync and async modes of the job-creating endpoints', () => {
    expect(doc.info.description).toMatch(/Sync and async/);
    expect(Object.keys(doc.paths['/jobs'].post.responses)).toEqual(expect.arrayContaining(['200', '201', '202']));
    expect(doc.paths['/jobs/validate'].post.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/PendingJobEnvelope');
    expect(doc.paths['/jobs/validate'].post.description).toMatch(/Sync by default/);
  });

  it('has closed request bodies, open only inside metaData and params', () => {
    const create = doc.components.schemas.CreateJobRequest;
    expect(create.additionalProperties).toBe(false);
    expect(doc.components.schemas.JobSource.additionalProperties).toBe(false);
    expect(doc.components.schemas.PreviewsStep.additionalProperties).toBe(false);
    const params = doc.components.schemas.PreviewsStep.properties.params.anyOf[0];
    expect(params.additionalProperties).toEqual({});
    expect(create.properties.metaData.anyOf[0].additionalProperties).toEqual({});
  });

  it('has request and response schemas for every operation and every $ref resolves', () => {
    for (const ref of new Set(refsIn(doc))) expect(resolve(ref), ref).toBeDefined();
    for (const id of ['Job', 'Task', 'Step', 'Artifact', 'JobRuns', 'JobList', 'Upload', 'Profiles', 'Error']) {
      expect(doc.components.schemas[id], id).toBeDefined();
    }
  });
});

describe('GET /openapi.json', () => {
  it('serves the committed document without a key', async () => {
    const res = await call('GET', '/openapi.json', { caller: null });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.body).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });
});

describe('handler modules', () => {
  it('exist for every route and export a handler', async () => {
    for (const route of ROUTES) {
      const load = HANDLER_MODULES[route.handler];
      expect(load, route.handler).toBeDefined();
      expect(typeof (await load!()).handler, route.handler).toBe('function');
    }
  });
});
