/**
 * Every HTTP route of the contract, once. The CDK api construct creates one
 * API Gateway method and one Lambda per entry; the local runtime routes requests
 * with the same table; the OpenAPI generator documents the same paths.
 * `handler` names the module lambdas/api/<handler>.ts, which exports `handler`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** API Gateway path syntax: `/jobs/{id}`. */
  path: string;
  handler: string;
  /** false only for the public routes (health, openapi, and the share link's, which check its token themselves). */
  auth: boolean;
  /** Sync-capable routes wait up to 27 s for a job, so their Lambda runs longer. */
  timeoutSeconds: number;
  memoryMb: number;
  /**
   * What the route's function needs besides the table, bucket and pipeline: `shareKey` the
   * share-link signing key, `eventBus` the job events bus (to publish on). CDK grants exactly these.
   */
  uses?: readonly ('shareKey' | 'eventBus')[];
  /**
   * What the function may do with the stack's storage and pipeline (CDK grants exactly this):
   * `jobs` (the default) reads and writes the table and the bucket and starts and stops job
   * executions; `records` reads and writes the table only; `readRecords` only reads the table.
   */
  access?: 'jobs' | 'records' | 'readRecords';
}

const route = (method: HttpMethod, path: string, handler: string, extra: Partial<RouteSpec> = {}): RouteSpec => ({
  method,
  path,
  handler,
  auth: true,
  timeoutSeconds: 10,
  memoryMb: 512,
  ...extra,
});

const jobCreating = { timeoutSeconds: 30, memoryMb: 1024 };

export const ROUTES: readonly RouteSpec[] = [
  route('GET', '/health', 'health', { auth: false }),
  route('GET', '/openapi.json', 'openapi', { auth: false }),
  route('POST', '/jobs', 'create-job', jobCreating),
  route('POST', '/jobs/preflight', 'create-preflight-job', jobCreating),
  route('POST', '/jobs/fix', 'create-fix-job', jobCreating),
  route('POST', '/jobs/validate', 'create-validate-job', jobCreating),
  route('POST', '/jobs/previews', 'create-previews-job', jobCreating),
  route('POST', '/jobs/optimize', 'create-optimize-job', jobCreating),
  route('GET', '/jobs', 'list-jobs'),
  route('GET', '/jobs/{id}', 'get-job'),
  route('DELETE', '/jobs/{id}', 'delete-job', { timeoutSeconds: 60 }),
  route('POST', '/jobs/{id}/review', 'review-job'),
  route('POST', '/jobs/{id}/share', 'share-job', { uses: ['shareKey'] }),
  route('DELETE', '/jobs/{id}/share', 'revoke-share'),
  route('GET', '/share', 'get-shared-job', { auth: false, uses: ['shareKey'] }),
  route('POST', '/share/decision', 'decide-shared-job', { auth: false, uses: ['shareKey', 'eventBus'] }),
  route('POST', '/uploads', 'create-upload'),
  route('GET', '/profiles', 'list-profiles', { access: 'readRecords' }),
  route('POST', '/profiles', 'create-profile', { access: 'records' }),
  route('GET', '/profiles/{id}', 'get-profile', { access: 'readRecords' }),
  route('PUT', '/profiles/{id}', 'replace-profile', { access: 'records' }),
  route('DELETE', '/profiles/{id}', 'delete-profile', { access: 'records' }),
];

/** The token authoriser in front of every `auth: true` route. */
export const AUTHORIZER_ENTRY = 'lambdas/api/authorizer.ts';

export const routeEntry = (r: RouteSpec): string => `lambdas/api/${r.handler}.ts`;

/** Matches a concrete path against the table; returns the route and path parameters. */
export function matchRoute(
  method: string,
  path: string,
): { route: RouteSpec; params: Record<string, string> } | { route: null; allowed: HttpMethod[] } {
  const allowed: HttpMethod[] = [];
  for (const r of ROUTES) {
    const params = matchPath(r.path, path);
    if (!params) continue;
    if (r.method === method) return { route: r, params };
    allowed.push(r.method);
  }
  return { route: null, allowed };
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/');
  const b = path.replace(/\/+$/, '').split('/');
  if (path === '/') b.splice(1);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const seg = a[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (b[i] === '') return null;
      params[seg.slice(1, -1)] = decodeURIComponent(b[i]!);
    } else if (seg !== b[i]) return null;
  }
  return params;
}
