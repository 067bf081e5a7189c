/**
 * One logger (lambdas/observability/logger.ts): nothing in the deployed code or
 * the local runtime writes to the console itself, so every line has the same
 * JSON keys and passes the same redaction. The CLIs in bin/ print for a person
 * and are not held to this.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const ROOTS = ['lambdas', 'local'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The code without its comments (a comment may name `console.log`), strings kept. */
const withoutComments = (code: string): string => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** A call of a console method, not a property that happens to be named console (`opts.console.files`). */
const CONSOLE_CALL = /(?<![.\w$])console\s*\.\s*\w+\s*\(/g;

describe('logging', () => {
  it('goes through the one logger: no console.* call in lambdas/ or local/', () => {
    const calls = ROOTS.flatMap((dir) => sourceFiles(join(root, dir))).flatMap((file) => {
      const code = withoutComments(readFileSync(file, 'utf8'));
      return [...code.matchAll(CONSOLE_CALL)].map((m) => `${relative(root, file)}: ${m[0]}`);
    });
    expect(calls).toEqual([]);
  });

  it('is checked on the real sources (the pattern finds a call)', () => {
    expect('  console.error(`[api] ${m}`, e);'.match(CONSOLE_CALL)).toHaveLength(1);
    expect('opts.console.files.get(path)'.match(CONSOLE_CALL)).toBeNull();
  });
});
