/**
 * A private /tmp directory per invocation. Lambda reuses /tmp across warm
 * invocations (and the local runtime runs many at once in one process), so every
 * invocation works in its own directory and removes it whatever happens: a 500 MB
 * source left behind would fill the function's ephemeral storage within a few jobs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withScratchDir<T>(label: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `proofline-${label}-`));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
