/**
 * Which request paths of the public distribution go to the API rather than to the console: one
 * CloudFront path pattern per route of ROUTES (lambdas/api/routes.ts), so a route added to the
 * table is reachable through the distribution without being listed again here.
 *
 * A route without parameters is its exact path (`/jobs`); a route with one is the path up to its
 * first parameter and a wildcard (`/jobs/{id}/review` → `/jobs/*`; CloudFront's `*` spans
 * slashes). Exact paths a wildcard already covers are left out, as CloudFront allows a distribution
 * few behaviours. The console keeps `/`, its page and `/assets/*`: a route that would take any of
 * them fails synthesis.
 */
import type { RouteSpec } from '../../lambdas/api/routes';
import { CONSOLE_INDEX_FILE } from '../../web/build-console';

/** Paths the console is served at (the page and, for `/assets/*`, one of its assets). */
export const CONSOLE_PATHS = ['/', `/${CONSOLE_INDEX_FILE}`, '/assets/console-0.js'] as const;

/** The path pattern of the console's hashed assets. */
export const CONSOLE_ASSETS_PATTERN = '/assets/*';

/** CloudFront's default quota of cache behaviours per distribution, the default one included. */
export const MAX_CACHE_BEHAVIOURS = 25;

/** Whether a CloudFront path pattern (`*` any characters, `?` one) matches a path. */
export function pathPatternMatches(pattern: string, path: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(path);
}

export function apiPathPatterns(routes: readonly Pick<RouteSpec, 'path'>[]): string[] {
  const patterns = new Set<string>();
  for (const { path } of routes) {
    const segments = path.split('/');
    const firstParameter = segments.findIndex((s) => s.startsWith('{'));
    patterns.add(firstParameter === -1 ? path : `${segments.slice(0, firstParameter).join('/')}/*`);
  }
  const wildcards = [...patterns].filter((p) => p.endsWith('*'));
  const needed = [...patterns].filter((p) => !wildcards.some((w) => w !== p && pathPatternMatches(w, p.replace(/\*$/, ''))));

  for (const pattern of needed) {
    const taken = CONSOLE_PATHS.find((path) => pathPatternMatches(pattern, path));
    if (taken) throw new Error(`The API path pattern ${pattern} would take the console's ${taken}; routes must leave /, /${CONSOLE_INDEX_FILE} and ${CONSOLE_ASSETS_PATTERN} to the console`);
  }
  // The default behaviour and the console's assets take two.
  if (needed.length > MAX_CACHE_BEHAVIOURS - 2) {
    throw new Error(`${needed.length} API path patterns exceed CloudFront's ${MAX_CACHE_BEHAVIOURS} cache behaviours per distribution`);
  }
  return needed.sort();
}
