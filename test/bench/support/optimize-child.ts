/**
 * A child process of `npm run bench:optimize` (support/bench-child.ts runs it
 * under a time limit): optimizes one PDF with the default parameters into
 * `outPath` and answers with the result.
 */
import '../../../lambdas/platform/polyfills';
import { optimizePdf } from '../../../lambdas/engine/optimize/optimize-pdf';
import type { OptimizeResult } from '../../../lambdas/engine/optimize/types';

export interface OptimizeJob {
  path: string;
  outPath: string;
}

export type OptimizeAnswer =
  | ({ id: number; ok: true; ms: number } & OptimizeResult)
  | { id: number; ok: false; name: string; message: string; ms: number };

process.on('message', (req: OptimizeJob & { id: number }) => {
  const t0 = performance.now();
  optimizePdf(req.path, req.outPath).then(
    (result) => process.send?.({ ...result, id: req.id, ok: true, ms: performance.now() - t0 } satisfies OptimizeAnswer),
    (err: unknown) => {
      const e = err as { name?: string; message?: string };
      process.send?.({ id: req.id, ok: false, name: e?.name ?? 'Error', message: String(e?.message ?? err).split('\n')[0]!, ms: performance.now() - t0 } satisfies OptimizeAnswer);
    },
  );
});

process.send?.({ ready: true });
