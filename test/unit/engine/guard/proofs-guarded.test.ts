/**
 * Proofs in a thread of their own (lambdas/engine/guard/proofs-guarded.ts): at
 * their time limit the thread is ended, and the threads it started (the proof
 * renderer's render threads) end with it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProofsTimeout, renderProofsGuarded } from '../../../../lambdas/engine/guard/proofs-guarded';
import type { PreflightReport } from '../../../../lambdas/engine/preflight';
import { tempFiles } from '../temp-files';

const files = tempFiles('proofs-guarded');

/** OS threads of this process now. */
const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);

describe('renderProofsGuarded', () => {
  it('ends a render that does not finish in time, with the threads it started', async () => {
    const before = threads();
    let most = before;
    const watch = setInterval(() => (most = Math.max(most, threads())), 50);
    const t0 = Date.now();
    try {
      await expect(
        renderProofsGuarded({ path: files.path('none.pdf'), report: {} as PreflightReport, outDir: files.dir, stall: { threads: 2 } }, { timeoutMs: 3_000, maxHeapMb: 256 }),
      ).rejects.toBeInstanceOf(ProofsTimeout);
    } finally {
      clearInterval(watch);
    }
    // The limit counts from the thread's start (here a cold one under tsx), not from the call.
    expect(Date.now() - t0).toBeLessThan(60_000);
    // The proofs thread and its two were running, and are all gone.
    expect(most).toBeGreaterThanOrEqual(before + 3);
    await expect.poll(threads, { timeout: 3_000 }).toBeLessThanOrEqual(before);
  });

  it("answers with the renderer's result", async () => {
    const report = { document: { kind: 'pdf' }, findings: [], pages: [] } as unknown as PreflightReport;
    await expect(renderProofsGuarded({ path: files.path('none.pdf'), report, outDir: files.dir }, { timeoutMs: 30_000, maxHeapMb: 256 })).resolves.toEqual({ images: [], failures: [] });
  });
});
