/**
 * docs/api.md and CONTRIBUTING.md stay true to the tree: every "docs/api.md §n"
 * a source comment or OpenAPI description cites names a section docs/api.md
 * has (a bare "API.md §n" would point at a file a clone does not have), docs/api.md lists every error code with its status,
 * and every repository path CONTRIBUTING.md names in backticks exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../lambdas/domain/errors';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const apiDoc = read('docs/api.md');
const contributing = read('CONTRIBUTING.md');

/** The numbers of the `## N. Title` headings of docs/api.md, in order. */
const sections = [...apiDoc.matchAll(/^## (\d+)\. \S/gm)].map((m) => Number(m[1]));

const CITING_DIRS = ['lambdas', 'lib', 'local', 'bin', 'step-definitions'];
const SOURCE_FILE = /\.(ts|mts|mjs|js|json)$/;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (SOURCE_FILE.test(name)) out.push(path);
  }
  return out;
}

/**
 * Each cited section number with where it is cited. Both spellings count
 * ("API.md §3", "docs/api.md §3", and § escaped as \u00a7 in JSON), and so
 * does every section of a list that follows one ("API.md §2, §4",
 * "API.md §7 and §9").
 */
function citations(): { section: number; at: string; file: string }[] {
  const found: { section: number; at: string; file: string }[] = [];
  for (const dir of CITING_DIRS) {
    for (const file of filesUnder(join(root, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(docs\/api\.md|API\.md) ((?:§|\\u00a7)\d+(?:(?:, | and | or |\/)(?:§|\\u00a7)\d+)*)/g)) {
        const line = text.slice(0, m.index).split('\n').length;
        for (const n of m[2]!.matchAll(/(?:§|\\u00a7)(\d+)/g)) found.push({ section: Number(n[1]), at: `${relative(root, file)}:${line}`, file: m[1]! });
      }
    }
  }
  return found;
}

describe('docs/api.md', () => {
  it('numbers its sections 1 to 11 in order, as the contract does', () => {
    expect(sections).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('says the contract stays authoritative and where the reference responses are', () => {
    const opening = apiDoc.slice(0, apiDoc.indexOf('\n## '));
    expect(opening).toContain('../shared/spec/API.md');
    expect(opening).toContain('../shared/spec/reference-responses/');
    expect(opening).toMatch(/authoritative/);
  });

  it('has every section that code comments and OpenAPI descriptions cite', () => {
    const cited = citations();
    expect(cited.length).toBeGreaterThan(0);
    const missing = cited.filter((c) => !sections.includes(c.section)).map((c) => `§${c.section} at ${c.at}`);
    expect(missing).toEqual([]);
  });

  it('is what every citation names: the copy in the repository, not the contract outside it', () => {
    expect(citations().filter((c) => c.file !== 'docs/api.md').map((c) => c.at)).toEqual([]);
  });

  it.each(Object.entries(ERROR_CODES))('lists error code %s with its status', (code, { status }) => {
    expect(apiDoc).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
  });
});

describe('CONTRIBUTING.md', () => {
  /** Backticked text that names a file or folder of the repository (placeholders such as `<handler>` excluded). */
  const REPO_PATH = /^(?:(?:lambdas|lib|local|bin|step-definitions|test|docs)\/[^\s<>*{}]*|[A-Z]+\.md|package\.json|tsconfig\.json|cdk\.json)$/;
  const paths = [...new Set([...contributing.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((p) => REPO_PATH.test(p)))];

  it('names repository paths', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(root, path.replace(/\/$/, ''))), path).toBe(true);
  });
});
