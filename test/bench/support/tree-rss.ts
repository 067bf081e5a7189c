/**
 * Peak resident memory of a whole process tree, sampled: every interval the
 * sum of VmRSS of a process and all its descendants, read from /proc. Worker
 * threads live inside their process, so a process's VmRSS covers them; child
 * processes (a tool the runtime spawns) are found through their parent ids.
 *
 * Reads are asynchronous, so a bench that samples while it drives the runtime
 * over HTTP never blocks its own event loop. Linux only: elsewhere every
 * reading is null and the figures are printed as n/a.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface ProcEntry {
  pid: number;
  ppid: number;
}

/** pid and parent pid from the text of /proc/<pid>/stat; the command may hold spaces and parentheses. */
export function parseStat(text: string): ProcEntry | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number.parseInt(text, 10);
  // After the command: state, ppid, …
  const ppid = Number(text.slice(close + 2).split(' ')[1]);
  return Number.isInteger(pid) && Number.isInteger(ppid) ? { pid, ppid } : null;
}

/** VmRSS in kB from the text of /proc/<pid>/status; null for a process without memory (a zombie, a kernel thread). */
export function parseVmRssKb(status: string): number | null {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb === undefined ? null : Number(kb);
}

/** `root` and every process below it. */
export function treeOf(root: number, entries: readonly ProcEntry[]): number[] {
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const list = children.get(e.ppid) ?? [];
    list.push(e.pid);
    children.set(e.ppid, list);
  }
  const tree: number[] = [];
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Sum of VmRSS (kB) over the tree of `root`, read from `procDir`; null when `root` is not there or has exited (a zombie). */
export async function treeRssKb(root: number, procDir = '/proc'): Promise<number | null> {
  let names: string[];
  try {
    names = await readdir(procDir);
  } catch {
    return null;
  }
  const entries = (
    await Promise.all(
      names
        .filter((n) => /^\d+$/.test(n))
        .map(async (n) => {
          try {
            return parseStat(await readFile(`${procDir}/${n}/stat`, 'utf8'));
          } catch {
            return null; // gone meanwhile
          }
        }),
    )
  ).filter((e): e is ProcEntry => e !== null);
  if (!entries.some((e) => e.pid === root)) return null;
  const sizes = await Promise.all(
    treeOf(root, entries).map(async (pid) => {
      try {
        return parseVmRssKb(await readFile(`${procDir}/${pid}/status`, 'utf8'));
      } catch {
        return null; // gone meanwhile
      }
    }),
  );
  // The root comes first: without its own reading the tree is not running any more.
  if (sizes[0] === null) return null;
  return sizes.reduce<number>((a, b) => a + (b ?? 0), 0);
}

export interface TreeRssSampler {
  /** Stops sampling (after one last reading) and returns the peak in MB, or null when nothing could be read. */
  stop(): Promise<number | null>;
}

/** Samples the tree of `root` every `intervalMs` until stopped. */
export function sampleTreeRss(root: number, intervalMs = 100, procDir = '/proc'): TreeRssSampler {
  let peakKb: number | null = null;
  let running = true;
  const take = async () => {
    const kb = await treeRssKb(root, procDir);
    if (kb !== null) peakKb = Math.max(peakKb ?? 0, kb);
  };
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await take();
      const wait = intervalMs - (performance.now() - t0);
      if (running && wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await take();
      return peakKb === null ? null : peakKb / 1024;
    },
  };
}
