/** A per-suite temporary directory for engine tests, removed afterwards. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * The engine's tests run without isolation (test/vitest.config.ts): a fixtures
 * module that calls this at load time is loaded once per worker, and its
 * directory is removed after the first test file that loaded it. So the
 * directory is made again whenever it is used.
 */
export function tempFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `proofline-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const ready = () => mkdirSync(dir, { recursive: true });
  return {
    dir,
    /** Writes bytes to a new file in the directory and returns its path. */
    write(bytes: Uint8Array | string, ext = 'bin'): string {
      ready();
      const path = join(dir, `f${++n}.${ext}`);
      writeFileSync(path, bytes);
      return path;
    },
    path(name: string): string {
      ready();
      return join(dir, name);
    },
  };
}
