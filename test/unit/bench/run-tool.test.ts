/**
 * Running a command-line tool under a time limit, and reading GNU time's
 * figure: what the benches rely on to keep a hanging poppler run from
 * stopping them. Node itself stands in for the tool.
 */
import { describe, expect, it } from 'vitest';
import { maxRssFromTimeOutput } from '../../bench/support/peak-rss';
import { runTool, toolsAvailable } from '../../bench/support/run-tool';

const node = process.execPath;

describe('runTool', () => {
  it('returns the output of a run that exits 0', async () => {
    const r = await runTool(node, ['-e', 'process.stdout.write("a b\\n"); process.stderr.write("warning")'], 10_000);
    expect(r).toMatchObject({ outcome: 'ok', exitCode: 0, stdout: 'a b\n', stderr: 'warning', stderrTail: 'warning' });
  });

  it('reports a non-zero exit as failed, with its stderr', async () => {
    const r = await runTool(node, ['-e', 'console.error("Syntax Error: broken"); process.exit(1)'], 10_000);
    expect(r).toMatchObject({ outcome: 'failed', exitCode: 1 });
    expect(r.stderr).toContain('Syntax Error: broken');
  });

  it('stops a run at its time limit and reports it as timed out', async () => {
    const t0 = performance.now();
    const r = await runTool(node, ['-e', 'setTimeout(() => {}, 30_000)'], 300);
    expect(r.outcome).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('reports a command that cannot be started as failed rather than throwing', async () => {
    const r = await runTool('/nonexistent/tool', [], 1_000);
    expect(r.outcome).toBe('failed');
  });

  it('keeps the end of a long stderr, where GNU time writes', async () => {
    const r = await runTool(node, ['-e', 'process.stderr.write("x".repeat(10000) + "maxrss-kb=2048")'], 10_000);
    expect(r.stderr.length).toBeLessThanOrEqual(2_000);
    expect(maxRssFromTimeOutput(r.stderrTail)).toBe(2);
  });
});

describe('toolsAvailable', () => {
  it('is false when any of the tools cannot be started', () => {
    expect(toolsAvailable(node, '/nonexistent/tool')).toBe(false);
  });
});

describe('maxRssFromTimeOutput', () => {
  it('reads the last figure GNU time printed, in MB', () => {
    expect(maxRssFromTimeOutput('Syntax Warning: x\nmaxrss-kb=11264\n')).toBe(11);
  });

  it('is null when GNU time printed nothing', () => {
    expect(maxRssFromTimeOutput('Syntax Error')).toBeNull();
  });
});
