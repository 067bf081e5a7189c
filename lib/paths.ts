/**
 * Where the CDK app finds the repository's files. Every entry, ASL document and
 * asset path in the WorkerSpec and route tables is relative to the repository
 * root, so the app resolves them here instead of relying on the current directory
 * (ops run `cdk` from the root, tests run from wherever vitest starts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** An absolute path for a path relative to the repository root (`lambdas/api/health.ts`). */
export const repoPath = (relative: string): string => join(REPO_ROOT, relative);

/** The lock file NodejsFunction reads to pick the package manager and project root. */
export const LOCK_FILE = repoPath('package-lock.json');

/**
 * Maps a function's repository-relative entry to the file esbuild bundles.
 * The app always uses the default; tests may substitute a fixture for an entry
 * another engineer has not written yet.
 */
export type EntryResolver = (repoRelativeEntry: string) => string;

export const defaultEntryResolver: EntryResolver = (entry) => {
  const path = repoPath(entry);
  if (!existsSync(path)) {
    throw new Error(`Lambda entry ${entry} does not exist (expected at ${path}); every route and worker needs its handler module.`);
  }
  return path;
};
