/**
 * The big-file bench's memory figure: the sum of VmRSS over a process and all
 * its descendants, read here from a fake /proc.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStat, parseVmRssKb, treeOf, treeRssKb } from '../../bench/support/tree-rss';
import { tempFiles } from '../engine/temp-files';

const files = tempFiles('tree-rss');

/** A fake /proc: pid → [ppid, VmRSS kB or null for none, command]. */
function fakeProc(name: string, procs: Record<number, [number, number | null, string]>): string {
  const dir = join(files.dir, name);
  for (const [pid, [ppid, rss, comm]] of Object.entries(procs)) {
    mkdirSync(join(dir, pid), { recursive: true });
    writeFileSync(join(dir, pid, 'stat'), `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 1 0 0 0 0 0\n`);
    writeFileSync(join(dir, pid, 'status'), `Name:\t${comm}\nPPid:\t${ppid}\n${rss === null ? '' : `VmRSS:\t  ${rss} kB\n`}Threads:\t4\n`);
  }
  mkdirSync(join(dir, 'self'), { recursive: true }); // not a pid: ignored
  return dir;
}

describe('parseStat', () => {
  it('reads pid and parent pid even when the command holds spaces and parentheses', () => {
    expect(parseStat('4242 (node (tsx) main) S 17 4242 4242 0 -1')).toEqual({ pid: 4242, ppid: 17 });
    expect(parseStat('garbage')).toBeNull();
  });
});

describe('parseVmRssKb', () => {
  it('reads VmRSS, and nothing for a process without one (a zombie)', () => {
    expect(parseVmRssKb('Name:\tnode\nVmHWM:\t  900 kB\nVmRSS:\t  812 kB\n')).toBe(812);
    expect(parseVmRssKb('Name:\tnode\nState:\tZ (zombie)\n')).toBeNull();
  });
});

describe('treeOf', () => {
  it('is the root and every descendant, however deep, and nothing else', () => {
    const entries = [
      { pid: 1, ppid: 0 },
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 13, ppid: 10 },
      { pid: 20, ppid: 1 },
    ];
    expect(treeOf(10, entries).sort((a, b) => a - b)).toEqual([10, 11, 12, 13]);
    expect(treeOf(20, entries)).toEqual([20]);
  });
});

describe('treeRssKb', () => {
  it('sums VmRSS over the tree of the root from /proc', async () => {
    const proc = fakeProc('a', {
      1: [0, 5000, 'init'],
      100: [1, 200_000, 'node'],
      101: [100, 30_000, 'pdftoppm'],
      102: [101, 1_000, 'sh (child)'],
      103: [100, null, 'zombie'],
      200: [1, 999_999, 'someone else'],
    });
    expect(await treeRssKb(100, proc)).toBe(231_000);
    expect(await treeRssKb(101, proc)).toBe(31_000);
  });

  it('is null when the root is not running, or has exited and not been reaped yet', async () => {
    expect(await treeRssKb(7, fakeProc('b', { 1: [0, 5000, 'init'] }))).toBeNull();
    expect(await treeRssKb(7, fakeProc('c', { 1: [0, 5000, 'init'], 7: [1, null, 'pdffonts'] }))).toBeNull();
    expect(await treeRssKb(7, join(files.dir, 'no-such-proc'))).toBeNull();
  });
});
