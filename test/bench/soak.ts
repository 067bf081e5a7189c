/**
 * `npm run bench:soak` — the local runtime (`npm start`, in a child process)
 * under a steady load of mixed jobs for a long time (issue 16):
 *
 * - every 1/rate seconds a job is created, in turn: preflight, fix with
 *   repreflight, validate, previews, optimize, and a POST /jobs with several
 *   steps; each is polled with GET /jobs/{id} every 2 s until it is terminal;
 * - all requests go through one keep-alive agent of `--connections` sockets,
 *   and nothing between requests blocks this event loop;
 * - every minute: the runtime's resident memory (its process tree), jobs
 *   created and finished so far.
 *
 * At the end it waits up to `--drain` seconds for the jobs to finish, then a
 * minute idle, and prints throughput, p50/p99 latency of creating and reading
 * jobs, and the TARGET lines: dropped connections 0, 5xx 0, jobs not
 * terminal 0, memory levels off (support/soak-summary.ts), idle memory a
 * minute after the load within 2x of the fresh runtime's.
 *
 * Options: --minutes M (20), --rate R jobs per second (1), --connections N (20),
 * --drain S (180), --idle S (60).
 */
import '../../lambdas/platform/polyfills';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { onePagePdfBytes } from '../e2e/support/files';
import { startLocalRuntime, type LocalRuntime } from './support/local-runtime-child';
import { LEVEL_TOLERANCE, percentile, rssLevelsOff } from './support/soak-summary';
import { treeRssKb } from './support/tree-rss';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    rate: { type: 'string', default: '1' },
    connections: { type: 'string', default: '20' },
    drain: { type: 'string', default: '180' },
    idle: { type: 'string', default: '60' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const connections = Number(values.connections);
const drainMs = Number(values.drain) * 1000;
const idleMs = Number(values.idle) * 1000;

const TERMINAL = new Set(['done', 'error']);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

interface Tally {
  createMs: number[];
  readMs: number[];
  status5xx: number;
  dropped: number;
  otherFailures: string[];
}
const tally: Tally = { createMs: [], readMs: [], status5xx: 0, dropped: 0, otherFailures: [] };

/** One request on the shared agent; resolves with status and parsed body, or null when the connection failed. */
function request(rt: LocalRuntime, method: string, route: string, body?: unknown): Promise<{ status: number; json: any } | null> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const req = http.request(`${rt.url}${route}`, {
      method,
      agent,
      headers: { authorization: `Bearer ${rt.key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
    });
    req.on('error', () => {
      tally.dropped++;
      resolve(null);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {
        tally.dropped++;
        resolve(null);
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 500) tally.status5xx++;
        let json: any = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          /* not JSON */
        }
        resolve({ status, json });
      });
    });
    req.end(payload);
  });
}

/** The mix, in turn. */
function jobBodies(file: string): [string, unknown][] {
  return [
    ['/jobs/preflight', { sources: [{ file, name: 'card.pdf' }] }],
    ['/jobs/fix', { repreflight: true, sources: [{ file, name: 'fix.pdf' }] }],
    ['/jobs/validate', { async: true, sources: [{ file, profile: '2b' }] }],
    ['/jobs/previews', { sources: [{ file, params: { format: 'png', dpi: 36 } }] }],
    ['/jobs/optimize', { async: true, sources: [{ file }] }],
    ['/jobs', { sources: [{ file, steps: [{ type: 'preflight' }, { type: 'previews', params: { format: 'jpeg', dpi: 36 } }] }] }],
  ];
}

async function followJob(rt: LocalRuntime, id: string, open: Set<string>): Promise<void> {
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const t0 = performance.now();
    const read = await request(rt, 'GET', `/jobs/${id}`);
    tally.readMs.push(performance.now() - t0);
    if (read && read.status === 200 && TERMINAL.has(read.json?.job?.status)) {
      open.delete(id);
      return;
    }
    if (read && read.status !== 200 && read.status < 500) {
      tally.otherFailures.push(`GET /jobs/${id}: ${read.status}`);
      open.delete(id);
      return;
    }
  }
}

async function rssMb(pid: number): Promise<number> {
  const kb = await treeRssKb(pid);
  return kb === null ? NaN : kb / 1024;
}

async function main(): Promise<void> {
  const file = Buffer.from(await onePagePdfBytes()).toString('base64');
  const bodies = jobBodies(file);
  console.log(`bench:soak: ${minutes} min at ${rate} jobs/s over ${connections} keep-alive connections, then up to ${drainMs / 1000} s to drain and ${idleMs / 1000} s idle.`);
  const rt = await startLocalRuntime({ waitForPrewarm: true, env: { RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000' } });
  try {
    const freshMb = await rssMb(rt.pid);
    console.log(`  fresh runtime, workers loaded: ${freshMb.toFixed(0)} MB`);
    const open = new Set<string>();
    const samples: number[] = [];
    let created = 0;
    const started = Date.now();
    const endAt = started + minutes * 60_000;
    let nextMinute = started + 60_000;
    let i = 0;
    while (Date.now() < endAt) {
      const [route, body] = bodies[i++ % bodies.length]!;
      const t0 = performance.now();
      void request(rt, 'POST', route, body).then((res) => {
        tally.createMs.push(performance.now() - t0);
        if (res && res.status < 300 && res.json?.job?.id) {
          created++;
          open.add(res.json.job.id);
          void followJob(rt, res.json.job.id, open);
        } else if (res && res.status < 500) tally.otherFailures.push(`POST ${route}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
      });
      await new Promise((r) => setTimeout(r, 1000 / rate));
      if (Date.now() >= nextMinute) {
        const mb = await rssMb(rt.pid);
        samples.push(mb);
        console.log(`  minute ${samples.length}: RSS ${mb.toFixed(0)} MB, ${created} jobs created, ${created - open.size} terminal, ${open.size} open`);
        nextMinute += 60_000;
      }
    }
    const loadSeconds = (Date.now() - started) / 1000;
    const drainEnd = Date.now() + drainMs;
    while (open.size > 0 && Date.now() < drainEnd) await new Promise((r) => setTimeout(r, 1000));
    const notTerminal = open.size;
    const terminalAt = Date.now();
    await new Promise((r) => setTimeout(r, idleMs));
    const idleMb = await rssMb(rt.pid);

    const verdict = rssLevelsOff(samples);
    console.log(`\nThroughput: ${created} jobs in ${loadSeconds.toFixed(0)} s = ${(created / loadSeconds).toFixed(2)} jobs/s created; all terminal ${((terminalAt - started) / 1000).toFixed(0)} s after the start.`);
    console.log(`Latency, creating a job: p50 ${percentile(tally.createMs, 50).toFixed(0)} ms, p99 ${percentile(tally.createMs, 99).toFixed(0)} ms (${tally.createMs.length} requests).`);
    console.log(`Latency, reading a job: p50 ${percentile(tally.readMs, 50).toFixed(0)} ms, p99 ${percentile(tally.readMs, 99).toFixed(0)} ms (${tally.readMs.length} requests).`);
    if (tally.otherFailures.length) console.log(`Refused requests (4xx): ${tally.otherFailures.length}, e.g. ${tally.otherFailures.slice(0, 3).join(' | ')}`);
    console.log(`RSS per minute (MB): ${samples.map((s) => s.toFixed(0)).join(', ')}; fresh ${freshMb.toFixed(0)}, idle ${idleMs / 1000} s after the load ${idleMb.toFixed(0)}.`);
    console.log(`TARGET dropped connections = 0 — ${tally.dropped === 0 ? 'met' : `NOT MET (${tally.dropped})`}`);
    console.log(`TARGET 5xx answers = 0 — ${tally.status5xx === 0 ? 'met' : `NOT MET (${tally.status5xx})`}`);
    console.log(`TARGET jobs not terminal at the end = 0 — ${notTerminal === 0 ? 'met' : `NOT MET (${notTerminal})`}`);
    console.log(
      `TARGET RSS levels off (the second half's trend adds ${verdict.trendMb.toFixed(0)} MB to its mean ${verdict.meanMb.toFixed(0)} MB; at most ${LEVEL_TOLERANCE * 100} %) — ${verdict.level ? 'met' : 'NOT MET'}`,
    );
    console.log(`TARGET idle RSS within 2x of fresh (${idleMb.toFixed(0)} MB vs ${freshMb.toFixed(0)} MB) — ${idleMb <= 2 * freshMb ? 'met' : 'NOT MET'}`);
  } finally {
    agent.destroy();
    await rt.stop();
  }
}

await main();
