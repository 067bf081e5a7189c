/**
 * `npm run bench:api` — figures for the API and the local runtime:
 *   1. median end-to-end time of a sync one-page preflight (POST /jobs/preflight, sync: true);
 *   2. peak RSS of the local runtime while a 100 MB uploaded PDF is preflighted;
 *   3. async POST /jobs/preflight latency p50/p99 and jobs created per second at
 *      50 concurrent connections for 20 s.
 * Each phase gets a fresh local runtime (`bin/start-local.ts`) in a child process,
 * so its memory is measured alone and one phase's backlog cannot slow the next.
 * Options: --concurrency N (50), --seconds S (20), --sync-runs N (15), --big-mb N (100).
 */
import '../../lambdas/platform/polyfills';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import http from 'node:http';
import { onePagePdfBytes, writeLargePdfFile } from '../e2e/support/files';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    'sync-runs': { type: 'string', default: '15' },
    'big-mb': { type: 'string', default: '100' },
  },
});
const root = path.resolve(import.meta.dirname, '../..');
const KEY = 'sk_test_bench_local_key';

interface Runtime {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startRuntime(port: number): Promise<Runtime> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'proofline-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/start-local.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), STORAGE_PORT: '0', DATA_DIR: dataDir, DEV_API_KEY: KEY, RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('local runtime did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Peak resident set size of a process so far (Linux VmHWM), MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function syncPreflightMedian(rt: Runtime, runs: number): Promise<number> {
  const body = JSON.stringify({ sync: true, sources: [{ file: Buffer.from(await onePagePdfBytes()).toString('base64') }] });
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(`${rt.url}/jobs/preflight`, { method: 'POST', headers: auth, body });
    const json: any = await res.json();
    if (res.status !== 200 || json.job.status !== 'done') throw new Error(`sync preflight answered ${res.status} ${json.job?.status}`);
    if (i >= 2) times.push(performance.now() - t0); // two warm-up runs
  }
  return quantile(times, 0.5);
}

async function bigUploadPeakRss(rt: Runtime, megabytes: number): Promise<{ peakMb: number; seconds: number; sizeMb: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proofline-bench-big-'));
  try {
    const file = path.join(dir, 'big.pdf');
    await writeLargePdfFile(file, megabytes * 1024 * 1024);
    const size = (await stat(file)).size;
    const t0 = performance.now();
    const up: any = await (await fetch(`${rt.url}/uploads`, { method: 'POST', headers: auth, body: JSON.stringify({ mimeType: 'application/pdf', sizeBytes: size }) })).json();
    const form = new FormData();
    for (const [k, v] of Object.entries(up.upload.fields as Record<string, string>)) form.append(k, v);
    form.append('file', await openAsBlob(file), 'big.pdf');
    const stored = await fetch(up.upload.url, { method: 'POST', body: form });
    if (stored.status >= 300) throw new Error(`upload refused: ${stored.status} ${await stored.text()}`);
    const res: any = await (await fetch(`${rt.url}/jobs/preflight`, { method: 'POST', headers: auth, body: JSON.stringify({ sources: [{ fileRef: up.fileRef }] }) })).json();
    for (;;) {
      const job: any = ((await (await fetch(`${rt.url}/jobs/${res.job.id}`, { headers: auth })).json()) as any).job;
      if (job.status === 'done' || job.status === 'error') {
        if (job.status !== 'done') throw new Error(`100 MB preflight ended ${job.status}: ${job.tasks[0]?.reason}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return { peakMb: await peakRssMb(rt.pid), seconds: (performance.now() - t0) / 1000, sizeMb: size / 1024 / 1024 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One POST over a keep-alive agent; resolves with the status code. */
function post(agent: http.Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...auth, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function asyncLoad(rt: Runtime, concurrency: number, seconds: number) {
  const body = JSON.stringify({ sources: [{ file: Buffer.from(await onePagePdfBytes()).toString('base64') }] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const connection = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        if ((await post(agent, `${rt.url}/jobs/preflight`, body)) === 201) latencies.push(performance.now() - t0);
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, connection));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return { created: latencies.length, errors, perSecond: latencies.length / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

const basePort = 3900 + Math.floor(Math.random() * 50) * 2;
const fmt = (n: number, d = 1) => n.toFixed(d);
console.log('Proofline API benchmark (local runtime, this machine)');

let rt = await startRuntime(basePort);
try {
  const median = await syncPreflightMedian(rt, Number(values['sync-runs']));
  console.log(`sync one-page preflight, end to end:        median ${fmt(median, 0)} ms over ${values['sync-runs']} runs`);
} finally {
  await rt.stop();
}

rt = await startRuntime(basePort + 1);
try {
  const idle = await peakRssMb(rt.pid);
  const big = await bigUploadPeakRss(rt, Number(values['big-mb']));
  console.log(`${fmt(big.sizeMb, 0)} MB upload + preflight:                 peak RSS ${fmt(big.peakMb, 0)} MB (idle ${fmt(idle, 0)} MB), ${fmt(big.seconds)} s upload to done`);
} finally {
  await rt.stop();
}

rt = await startRuntime(basePort + 2);
try {
  const c = Number(values.concurrency);
  const s = Number(values.seconds);
  const load = await asyncLoad(rt, c, s);
  console.log(`async POST /jobs/preflight, ${c} connections, ${s} s: p50 ${fmt(load.p50, 0)} ms, p99 ${fmt(load.p99, 0)} ms, ${fmt(load.perSecond)} jobs created/s (${load.created} created, ${load.errors} errors)`);
} finally {
  await rt.stop();
}
