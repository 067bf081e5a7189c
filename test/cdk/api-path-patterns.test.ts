/** lib/constructs/api-path-patterns.ts: which paths of the distribution the route table claims for the API. */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/api/routes';
import { apiPathPatterns, CONSOLE_PATHS, pathPatternMatches } from '../../lib/constructs/api-path-patterns';

const routes = (...paths: string[]) => paths.map((path) => ({ path }));

describe('CloudFront path patterns', () => {
  it('match with * spanning slashes and ? one character, and nothing else special', () => {
    expect(pathPatternMatches('/jobs/*', '/jobs/j_1/review')).toBe(true);
    expect(pathPatternMatches('/jobs/*', '/jobs')).toBe(false);
    expect(pathPatternMatches('/jobs', '/jobs/')).toBe(false);
    expect(pathPatternMatches('/openapi.json', '/openapiXjson')).toBe(false);
    expect(pathPatternMatches('/file?.txt', '/file1.txt')).toBe(true);
  });
});

describe('the API path patterns', () => {
  it('are a route’s exact path, or its path up to the first parameter and a wildcard', () => {
    expect(apiPathPatterns(routes('/health', '/jobs', '/jobs/{id}', '/jobs/{id}/review', '/uploads'))).toEqual(['/health', '/jobs', '/jobs/*', '/uploads']);
  });

  it('leave out exact paths and wildcards a wider wildcard covers', () => {
    expect(apiPathPatterns(routes('/jobs/preflight', '/jobs/{id}', '/jobs/{id}/files/{name}', '/jobsearch'))).toEqual(['/jobs/*', '/jobsearch']);
  });

  it('cover every route of the table and none of the console’s paths', () => {
    const patterns = apiPathPatterns(ROUTES);
    for (const route of ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x1');
      expect(patterns.some((p) => pathPatternMatches(p, path)), route.path).toBe(true);
    }
    for (const path of CONSOLE_PATHS) expect(patterns.some((p) => pathPatternMatches(p, path)), path).toBe(false);
  });

  it.each([['/'], ['/{page}'], ['/assets/{name}'], ['/index.html']])('refuse a route at %s, which would take the console', (path) => {
    expect(() => apiPathPatterns(routes('/jobs', path))).toThrow(/would take the console/);
  });

  it('refuse more patterns than a distribution has behaviours for', () => {
    const many = Array.from({ length: 24 }, (_, i) => `/r${i}`);
    expect(() => apiPathPatterns(routes(...many))).toThrow(/exceed CloudFront's 25 cache behaviours/);
    expect(apiPathPatterns(routes(...many.slice(0, 23)))).toHaveLength(23);
  });
});
