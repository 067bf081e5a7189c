/**
 * engine/core is the bottom layer of the engines (as pdf-lib's core never
 * imports its api): nothing in it may import from the engines built on it
 * (validate, preflight, autofix, previews, guard…) or from the platform. Only
 * node: modules, packages, other files of core and lambdas/domain (the
 * application's bottom layer, which imports nothing: core's loader throws its
 * UnprocessableFileError) are allowed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = resolve(__dirname, '../../../../lambdas/engine/core');
const DOMAIN = resolve(__dirname, '../../../../lambdas/domain');
const inside = (dir: string, path: string): boolean => path === dir || path.startsWith(dir + sep);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|mts|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Module specifiers of static imports and re-exports, dynamic imports and requires. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const p of patterns) for (const m of source.matchAll(p)) found.push(m[1]!);
  return found;
}

describe('engine/core', () => {
  it('imports nothing from outside core but node: modules, packages and the domain', () => {
    const outside: string[] = [];
    for (const file of sourceFiles(CORE)) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec);
        if (!inside(CORE, target) && !inside(DOMAIN, target)) outside.push(`${relative(CORE, file)} → ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('finds the imports it checks', () => {
    // Guards the test above against a pattern that silently matches nothing.
    expect(specifiers(readFileSync(join(CORE, 'load-pdf.ts'), 'utf8'))).toContain('./parse-limits');
  });
});
