/**
 * Peak resident memory, for the benches' figures. Linux keeps each process's
 * high-water mark (VmHWM in /proc/<pid>/status); worker threads share their
 * process's, so one reading covers a process and all its threads. Other
 * processes (poppler's tools) are measured by running them under GNU time,
 * which reports the child's maximum RSS when it exits.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Peak RSS of a process so far in MB, or null where /proc is not available. */
export function peakRssMb(pid: number = process.pid): number | null {
  try {
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/** GNU time, if installed: run `[GNU_TIME, '-f', MAX_RSS_FORMAT, cmd, ...args]`. */
export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
export const MAX_RSS_FORMAT = 'maxrss-kb=%M';

/** The child's maximum RSS in MB from stderr of a run under `GNU_TIME -f MAX_RSS_FORMAT`. */
export function maxRssFromTimeOutput(stderr: string): number | null {
  const matches = [...stderr.matchAll(/maxrss-kb=(\d+)/g)];
  const kb = matches.at(-1)?.[1];
  return kb === undefined ? null : Number(kb) / 1024;
}
