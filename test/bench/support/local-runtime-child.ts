/**
 * The local runtime as a user starts it (`npm start`, bin/start-local.ts), in a
 * child process of the bench, on free loopback ports and a data directory of
 * its own, with the API key it prints; and the HTTP calls a client makes:
 * an upload streamed from disk through `POST /uploads` and the presigned form
 * POST, a job created and polled until it is terminal. Everything is
 * asynchronous: the bench samples memory on the same event loop.
 */
import { PREWARMED } from '../../../local/runtime-info';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/** A port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The key from the banner bin/start-local.ts prints when it is ready. */
export function keyFromBanner(stdout: string): string | null {
  return /API key[^\n]*:\n\s+(\S+)/.exec(stdout)?.[1] ?? null;
}

export interface LocalRuntime {
  url: string;
  key: string;
  pid: number;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; removes the data directory. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `waitForPrewarm`: return only once the runtime has loaded its pipeline
 * workers (`npm start` prewarms them in the background), so a job is timed
 * against warm workers, as a deployed stack's are after their first use.
 */
export async function startLocalRuntime(opts: { startTimeoutMs?: number; env?: NodeJS.ProcessEnv; waitForPrewarm?: boolean } = {}): Promise<LocalRuntime> {
  const [port, storagePort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'proofline-big-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/start-local.ts'], {
    cwd: root,
    env: { ...process.env, ...opts.env, PORT: String(port), STORAGE_PORT: String(storagePort), DATA_DIR: dataDir, DEV_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stdoutTail = '';
  let stderrTail = '';
  let prewarmed = false;
  // The runtime's log lines (the prewarm's among them) go to stdout, its errors to stderr.
  child.stdout!.on('data', (d: Buffer) => {
    if (stdout.length < 64 * 1024) stdout += d.toString();
    stdoutTail = (stdoutTail + d.toString()).slice(-4000);
    if (stdoutTail.includes(PREWARMED)) prewarmed = true;
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderrTail = (stderrTail + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 20_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
  for (;;) {
    const key = keyFromBanner(stdout);
    if (key) {
      const url = `http://127.0.0.1:${port}`;
      try {
        if ((!opts.waitForPrewarm || prewarmed) && (await fetch(`${url}/health`)).status === 200) return { url, key, pid: child.pid!, stop };
      } catch {
        /* not listening yet */
      }
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop(1000);
      throw new Error(`the local runtime did not start: ${stderrTail.trim().split('\n').slice(-5).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** JSON request with the key; the parsed answer and its status. */
export async function api(rt: LocalRuntime, method: string, route: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${rt.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${rt.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text.slice(0, 500) };
  }
  return { status: res.status, json };
}

/**
 * `POST /uploads`, then the presigned multipart POST with the file streamed
 * from disk (fields first, the file last, in a part named `file`). Resolves
 * with the fileRef.
 */
export async function uploadFile(rt: LocalRuntime, file: string, mimeType = 'application/pdf'): Promise<string> {
  const sizeBytes = (await stat(file)).size;
  const up = await api(rt, 'POST', '/uploads', { mimeType, sizeBytes });
  if (up.status !== 200) throw new Error(`POST /uploads answered ${up.status}: ${JSON.stringify(up.json).slice(0, 300)}`);
  const { url, fields } = up.json.upload as { url: string; fields: Record<string, string> };
  const boundary = `----proofline-bench-${Date.now().toString(16)}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: ${mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + sizeBytes + tail.length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.write(head);
    const body = createReadStream(file);
    body.on('error', reject);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
  if (status >= 300) throw new Error(`the upload was refused: ${status}`);
  return up.json.fileRef as string;
}

export interface JobEnd {
  status: string;
  outcome: string | null;
  /** The job as last read. */
  job: any;
  timedOut: boolean;
}

const TERMINAL = new Set(['done', 'error', 'skipped']);

/** Creates a job and polls `GET /jobs/{id}` until it is terminal or `timeoutMs` has passed. */
export async function runJob(rt: LocalRuntime, route: string, body: unknown, timeoutMs: number, pollMs = 250): Promise<JobEnd> {
  const created = await api(rt, 'POST', route, body);
  if (created.status >= 300) throw new Error(`POST ${route} answered ${created.status}: ${JSON.stringify(created.json).slice(0, 300)}`);
  let job = created.json.job;
  const end = Date.now() + timeoutMs;
  while (!TERMINAL.has(job.status)) {
    if (Date.now() > end) return { status: job.status, outcome: job.outcome ?? null, job, timedOut: true };
    await new Promise((r) => setTimeout(r, pollMs));
    const read = await api(rt, 'GET', `/jobs/${job.id}`);
    if (read.status !== 200) throw new Error(`GET /jobs/${job.id} answered ${read.status}`);
    job = read.json.job;
  }
  return { status: job.status, outcome: job.outcome ?? null, job, timedOut: false };
}

/** The reasons of the job's failed steps or tasks, as the customer reads them. */
export function errorSentences(job: any): string[] {
  const out: string[] = [];
  for (const task of job?.tasks ?? []) {
    const failed = (task.steps ?? []).filter((s: any) => s.status === 'error' && s.reason);
    if (failed.length > 0) out.push(...failed.map((s: any) => `${s.type}: ${s.reason}`));
    else if (task.status === 'error') out.push(task.reason ?? task.audit?.at(-1)?.message ?? 'no reason given');
  }
  return out;
}

/** What each finished step said in its task's audit log (the summary says what it delivered). */
export function stepSummaries(job: any): string[] {
  return (job?.tasks ?? []).flatMap((t: any) => (t.audit ?? []).filter((a: any) => a.event === 'step.finished' && typeof a.message === 'string').map((a: any) => a.message as string));
}
