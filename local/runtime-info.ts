/**
 * `<DATA_DIR>/runtime.json`: how other processes (the keys CLI) reach a running
 * local runtime's data. dynalite keeps its store in a LevelDB directory that only
 * one process may open, so while the runtime runs, others must talk to its
 * dynalite over HTTP instead of opening the directory themselves.
 */
import { readFileSync, rmSync, writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

/** What the runtime logs (a line on stdout) once its prewarm has loaded every pipeline worker; bench:big waits for it. */
export const PREWARMED = 'pipeline workers prewarmed';

export interface RuntimeInfo {
  pid: number;
  port: number;
  storagePort: number;
  endpoints: { dynamodb: string; s3: string; api: string };
  tableName: string;
  bucketName: string;
  region: string;
  startedAt: string;
}

export const runtimeInfoPath = (dataDir: string): string => join(dataDir, 'runtime.json');

export function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): void {
  mkdirSync(dataDir, { recursive: true });
  const file = runtimeInfoPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(tmp, file);
}

export function readRuntimeInfo(dataDir: string): RuntimeInfo | null {
  try {
    const info = JSON.parse(readFileSync(runtimeInfoPath(dataDir), 'utf8')) as RuntimeInfo;
    return typeof info?.pid === 'number' && typeof info.endpoints?.dynamodb === 'string' ? info : null;
  } catch {
    return null;
  }
}

/** Removes the file only if it still describes this process's runtime. */
export function removeRuntimeInfo(dataDir: string, pid = process.pid): void {
  if (readRuntimeInfo(dataDir)?.pid === pid) rmSync(runtimeInfoPath(dataDir), { force: true });
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the runtime the file describes still runs: its process is alive and
 * its dynalite answers (a pid from a stale file may have been reused).
 */
export async function isRunning(info: RuntimeInfo): Promise<boolean> {
  return isProcessAlive(info.pid) && (await answers(info.endpoints.dynamodb));
}

function answers(endpoint: string): Promise<boolean> {
  return new Promise((done) => {
    try {
      const req = request(endpoint, { method: 'GET', timeout: 1000 }, (res) => {
        res.resume();
        done(true);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => done(false));
      req.end();
    } catch {
      done(false);
    }
  });
}
