/** A per-suite temporary directory for engine tests, removed afterwards. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `proofline-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return {
    dir,
    /** Writes bytes to a new file in the directory and returns its path. */
    write(bytes: Uint8Array | string, ext = 'bin'): string {
      const path = join(dir, `f${++n}.${ext}`);
      writeFileSync(path, bytes);
      return path;
    },
    path(name: string): string {
      return join(dir, name);
    },
  };
}
