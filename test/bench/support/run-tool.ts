/**
 * Runs a command-line tool (pdffonts, pdfimages) on one file with a time limit,
 * for the benchmarks that compare our figures with poppler's. A run that exits
 * non-zero or is stopped at its limit is reported as such, never thrown: the
 * benches count those files apart instead of stopping.
 */
import { spawn, spawnSync } from 'node:child_process';

export type ToolOutcome = 'ok' | 'failed' | 'timeout';

export interface ToolRun {
  outcome: ToolOutcome;
  exitCode: number | null;
  stdout: string;
  /** The start of stderr, for telling why a run failed. */
  stderr: string;
  /** The end of stderr (where GNU time writes its figures). */
  stderrTail: string;
  ms: number;
}

/** Output kept per run; `pdfimages -list` on a hostile file can print without end. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const MAX_STDERR_CHARS = 2_000;

export function runTool(command: string, args: readonly string[], timeoutMs: number): Promise<ToolRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let stderrTail = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes < MAX_OUTPUT_BYTES) out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (stderr.length < MAX_STDERR_CHARS) stderr += text;
      stderrTail = (stderrTail + text).slice(-MAX_STDERR_CHARS);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      const outcome: ToolOutcome = timedOut ? 'timeout' : exitCode === 0 ? 'ok' : 'failed';
      resolve({
        outcome,
        exitCode,
        // pdffonts prints names byte for byte; latin1 keeps one character per byte.
        stdout: Buffer.concat(out).toString('latin1'),
        stderr: stderr.slice(0, MAX_STDERR_CHARS),
        stderrTail,
        ms: performance.now() - t0,
      });
    };
    child.on('error', () => finish(null));
    child.on('close', (code) => finish(code));
  });
}

/** Whether every named tool can be started (it answers `-v`). */
export function toolsAvailable(...commands: string[]): boolean {
  return commands.every((c) => {
    const r = spawnSync(c, ['-v'], { stdio: 'ignore' });
    return r.error === undefined;
  });
}
