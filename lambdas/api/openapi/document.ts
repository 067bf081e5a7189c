/**
 * Builds the OpenAPI 3.1 document of the API from the route table, the zod
 * schemas (requests and responses) and the error codes. `bin/openapi.ts`
 * writes it to lambdas/api/openapi.json, which is committed and served by
 * GET /openapi.json; a test fails when the committed file differs from what
 * this builds, so the document cannot fall behind the code.
 */
import { ERROR_CODES, type ErrorCode } from '../../domain/errors';
import { REQUEST_ID_HEADERS } from '../middleware/request-id';
import { ROUTES } from '../routes';
import { componentSchemas, schemaRef } from './components';
import { OPERATIONS, type OperationSpec } from './operations';

type Json = Record<string, unknown>;

export const API_VERSION = '1.0.0';

/** Statuses any route can answer whatever it does (the gateway answers 429, 502 and 504 itself). */
const PUBLIC_ERRORS = [429, 500, 502, 504];
const AUTHENTICATED_ERRORS = [401, ...PUBLIC_ERRORS];

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

const responseName = (status: number): string => STATUS_NAMES[status] ?? `Status${status}`;

const codesWithStatus = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);

function errorTable(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => `| ${ERROR_CODES[code].status} | \`${code}\` | ${ERROR_CODES[code].title} |`);
  return ['| status | code | meaning |', '|---|---|---|', ...rows].join('\n');
}

const DESCRIPTION = `Proofline preflights, fixes, validates (PDF/A, PDF/UA), optimizes and renders previews of print and document files.

A **job** holds one **task** per source file; a task runs its ordered **steps** on its file. \`status\` says where
execution stands (pending, running, done, skipped, error); \`outcome\` says what was found (pass, warn, fail, fixed,
unchanged, na, mixed) and is null until terminal. \`canProceed\` on a terminal job is the fulfilment gate, by
\`policy.onFail\`.

**Authentication.** Every endpoint except GET /health, GET /openapi.json and the share link's GET /share and POST
/share/decision needs \`Authorization: Bearer <secret key>\`. Every job, upload and file belongs to the account of the key
that created it. A share link's token (sent in the \`Share-Token\` header) opens one job's proof and is never a key.

**Sync and async.** Job-creating endpoints answer at once (async: 201) or wait up to 27 s for the job (sync: 200 when
it finished, else 202 \`{ job, pending: true }\` and the job goes on). POST /jobs, /jobs/preflight, /jobs/fix and
/jobs/previews are async unless \`"sync": true\`; POST /jobs/validate and /jobs/optimize are sync unless \`"async": true\` (then 201
\`{ job, pending: true }\`). The webhook fires whatever the mode.

**Idempotency.** Every POST with a key accepts an \`Idempotency-Key\` header (at most 255 characters). The same key with the same
body within 24 hours returns the first response again, with header \`idempotent-replayed: true\`, and creates nothing;
with another body it is a 409 \`idempotency_key_reused\`, and while the first request still runs a 409
\`idempotency_in_progress\`. Server errors (5xx) are not kept: the same request may be retried with the same key.

**Bodies** are JSON (\`Content-Type: application/json\`) and closed: an unknown field is a 400 naming it, except inside
\`metaData\`, \`params\` and \`runtimeParams\`. Bodies over the size limit are a 413: upload files with POST /uploads.

**Errors.** Every non-2xx response has the body \`{ "error": true, "code", "message", "param"?, "requestId" }\`; \`code\`
is stable, \`message\` is for people, \`param\` names the field at fault (\`sources[0].url\`). Every response carries
the request id in the \`x-request-id\` header, and again in \`apigw-requestid\` (the name the clients written for the
original service read).

${errorTable()}`;

function jsonContent(schema: Json): Json {
  return { 'application/json': { schema } };
}

const requestIdHeader = { $ref: '#/components/headers/RequestId' };

/** The request id under each of its names (request-id.ts): the same value twice. */
const requestIdHeaders = (): Record<string, Json> => Object.fromEntries(REQUEST_ID_HEADERS.map((name) => [name, requestIdHeader]));

function successSchema(ids: string | string[] | null): Json {
  if (ids === null) return { type: 'object' };
  if (Array.isArray(ids)) return { oneOf: ids.map(schemaRef) };
  return schemaRef(ids);
}

function operationObject(method: string, auth: boolean, spec: OperationSpec): Json {
  const responses: Record<string, Json> = {};
  for (const [status, [description, ids]] of Object.entries(spec.success)) {
    responses[status] = {
      description,
      headers: method === 'POST' && auth ? { ...requestIdHeaders(), 'idempotent-replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : requestIdHeaders(),
      // 204 has no body.
      ...(Number(status) === 204 ? {} : { content: jsonContent(successSchema(ids)) }),
    };
  }
  const errorStatuses = [...new Set([...spec.errors, ...(auth ? AUTHENTICATED_ERRORS : PUBLIC_ERRORS)])].sort((a, b) => a - b);
  for (const status of errorStatuses) responses[String(status)] = { $ref: `#/components/responses/${responseName(status)}` };

  const parameters = [...(spec.parameters ?? [])];
  if (method === 'POST' && auth) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    ...(auth ? {} : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: { required: true, content: jsonContent(schemaRef(spec.requestBody)) } } : {}),
    responses,
  };
}

function errorResponses(): Record<string, Json> {
  const out: Record<string, Json> = {};
  // One shared response per status any error code has.
  const statuses = [...new Set(Object.values(ERROR_CODES).map((c) => c.status as number))].sort((a, b) => a - b);
  for (const status of statuses) {
    const name = responseName(status);
    const codes = codesWithStatus(status);
    const headers: Record<string, Json> = requestIdHeaders();
    if (Number(status) === 401) headers['WWW-Authenticate'] = { description: '`Bearer`.', schema: { type: 'string' } };
    if (Number(status) === 429) headers['Retry-After'] = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };
    if (Number(status) === 405) headers.Allow = { description: 'The methods the path accepts.', schema: { type: 'string' } };
    out[name] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].title}`).join(' '),
      headers,
      content: jsonContent(schemaRef('Error')),
    };
  }
  return out;
}

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of ROUTES) {
    const spec = OPERATIONS[`${route.method} ${route.path}`];
    if (!spec) throw new Error(`openapi: no operation documented for ${route.method} ${route.path}`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationObject(route.method, route.auth, spec);
  }
  const documented = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
  for (const key of Object.keys(OPERATIONS)) {
    if (!documented.has(key)) throw new Error(`openapi: ${key} is documented but not in ROUTES`);
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Proofline API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'The local runtime (`npm start`); deployed stacks print their URL.' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Jobs', description: 'Create, read, list, review and delete jobs.' },
      { name: 'Sharing', description: 'Proof pages for the shop\'s customer: share links, their view of one job, and the customer\'s decision.' },
      { name: 'Uploads', description: 'Upload large files directly to storage.' },
      { name: 'Profiles', description: 'What a job can ask for.' },
      { name: 'Service', description: 'Health and this document.' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_live_… or sk_test_…',
          description: 'A secret key of your account. Keys are issued with the keys tool; a revoked key stops working within 60 s.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the POST safe to retry: the same key and body within 24 hours replay the first response.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        RequestId: { description: 'The id of this request; also `requestId` in error bodies.', schema: { type: 'string' } },
        IdempotentReplayed: {
          description: '`true` when this is the stored first response to the same Idempotency-Key and body.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      responses: errorResponses(),
      schemas: componentSchemas(),
    },
    'x-error-codes': (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({
      code,
      status: ERROR_CODES[code].status,
      meaning: ERROR_CODES[code].title,
    })),
  };
}

/** The document as committed: stable key order from construction, two-space indent, final newline. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
