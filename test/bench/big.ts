/**
 * `npm run bench:big` — one big file through the local runtime, as a customer
 * sends it: a generated 440-page, about 509 MB PDF (support/big-pdf.ts: one
 * distinct 1.15 MB noise JPEG and a line of Helvetica text per page), and a
 * 50-page one of the same make, kept in a cache directory and reused.
 *
 * Each job runs alone in a fresh local runtime (`bin/start-local.ts` in a child
 * process, as `npm start` starts it, with the key it prints, on free loopback
 * ports), timed once the runtime has prewarmed its workers, as a deployed
 * stack's functions are warm after their first use; previews of the big file
 * are also timed in a cold runtime (LOCAL_PREWARM=0), printed without a
 * target: the first job after a cold start. The file is uploaded
 * (`POST /uploads` and the presigned form POST,
 * streamed from disk), then the job is created and polled until it is terminal:
 * previews of pages 1–3 (on the 50- and the 440-page file: their time should
 * not depend on the page count), preflight (default profile), validate 2b, and
 * fix (`POST /jobs/fix`). For each: the time from creating the job to its end,
 * and the peak RSS of the runtime's whole process tree (support/tree-rss.ts,
 * sampled every 100 ms), beside `pdftoppm -f 1 -l 3 -r 72` and `pdffonts` +
 * `pdfimages -list` on the same files in the same run, measured by the same
 * sampler.
 *
 * Targets (one `TARGET … — met / NOT MET` line each): previews of pages 1–3
 * under 5 s and 1 GB; preflight done with a report under 60 s; validate 2b
 * under 30 s; fix under 120 s; every job under 3 GB. A job that ends in error
 * prints its error sentence.
 *
 * Options: --pages N (440), --only previews|preflight|validate|fix,
 * --timeout S (per job, default 900: the workers' own limit), --cache DIR.
 */
import '../../lambdas/platform/polyfills';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchCacheDir, cachedBigPdf } from './support/big-pdf';
import { errorSentences, runJob, stepSummaries, startLocalRuntime, uploadFile } from './support/local-runtime-child';
import { toolsAvailable } from './support/run-tool';
import { sampleTreeRss, treeRssKb } from './support/tree-rss';

const JOBS = ['previews', 'preflight', 'validate', 'fix'] as const;
type JobKind = (typeof JOBS)[number];

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '440' },
    only: { type: 'string' },
    timeout: { type: 'string', default: '900' },
    cache: { type: 'string' },
  },
});
const pages = Number(values.pages);
const timeoutS = Number(values.timeout);
if (!Number.isInteger(pages) || pages < 1) throw new Error(`--pages wants a whole number ≥ 1, not ${values.pages}`);
if (!(timeoutS > 0)) throw new Error(`--timeout wants seconds > 0, not ${values.timeout}`);
if (values.only !== undefined && !JOBS.includes(values.only as JobKind)) throw new Error(`--only is one of ${JOBS.join(', ')}, not ${values.only}`);
const only = values.only as JobKind | undefined;
const wanted = (k: JobKind) => only === undefined || only === k;
const SMALL_PAGES = 50;

const GB = 1024;
const fmtS = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
const fmtMb = (mb: number | null) => (mb === null ? 'n/a' : `${mb.toFixed(0)} MB`);

interface Row {
  what: string;
  file: string;
  /** done, error, timeout, … */
  status: string;
  ms: number | null;
  peakMb: number | null;
  note: string;
  kind?: JobKind;
  /** Timed in a runtime that had not loaded its workers (no target). */
  cold?: boolean;
  hasReport?: boolean;
  errors?: string[];
}
const rows: Row[] = [];
/** Adds a row and says so at once: a whole run takes many minutes. */
function record(r: Row): void {
  rows.push(r);
  console.log(`  … ${r.what}, ${r.file}: ${r.status}, ${r.status.startsWith('timeout') ? `> ${timeoutS} s` : fmtS(r.ms)}, peak ${fmtMb(r.peakMb)}`);
}

/** Runs a tool on its own, sampling its process tree; stdout is drained and dropped. */
function measureTool(cmd: string, args: string[], timeoutMs: number): Promise<{ ok: boolean; ms: number; peakMb: number | null; err: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // Poppler's tools finish in well under a second: sampled every 10 ms.
    const sampler = sampleTreeRss(child.pid!, 10);
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 500) err += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', async (code, signal) => {
      const ms = performance.now() - t0;
      clearTimeout(timer);
      resolve({ ok: code === 0, ms, peakMb: await sampler.stop(), err: signal ? `stopped (${signal})` : err.trim() });
    });
  });
}

/**
 * One job alone in a fresh runtime, started as `npm start` starts it and
 * timed once it has prewarmed its workers; `cold`: with LOCAL_PREWARM=0 and at
 * once, so every worker loads its modules during the job (a row of its own,
 * with no target: what the first job after a cold start costs).
 */
async function measureJob(kind: JobKind, file: string, filePages: number, cold = false): Promise<Row> {
  const what = (kind === 'previews' ? 'previews pages 1–3' : kind === 'validate' ? 'validate 2b' : kind === 'fix' ? 'fix (POST /jobs/fix)' : 'preflight (default profile)') + (cold ? ', cold runtime' : '');
  const label = `${filePages} p`;
  const rt = await startLocalRuntime(cold ? { env: { LOCAL_PREWARM: '0' } } : { waitForPrewarm: true });
  try {
    const u0 = performance.now();
    const fileRef = await uploadFile(rt, file);
    const uploadMs = performance.now() - u0;
    const idleKb = await treeRssKb(rt.pid);
    const name = path.basename(file);
    const request: Record<JobKind, [string, unknown]> = {
      previews: ['/jobs/previews', { sources: [{ fileRef, name, params: { pages: '1-3', format: 'png', dpi: 72, thumbnail: false } }] }],
      preflight: ['/jobs/preflight', { sources: [{ fileRef, name }] }],
      validate: ['/jobs/validate', { async: true, sources: [{ fileRef, name, profile: '2b' }] }],
      fix: ['/jobs/fix', { sources: [{ fileRef, name }] }],
    };
    const [route, body] = request[kind];
    const sampler = sampleTreeRss(rt.pid);
    const t0 = performance.now();
    let end;
    try {
      end = await runJob(rt, route, body, timeoutS * 1000);
    } catch (e) {
      await sampler.stop();
      return { what, file: label, status: 'failed', ms: null, peakMb: null, note: (e as Error).message, kind };
    }
    const ms = performance.now() - t0;
    const peakMb = await sampler.stop();
    const errors = errorSentences(end.job);
    const hasReport = (end.job.tasks?.[0]?.steps ?? []).some((s: any) => (s.outputs ?? []).some((o: any) => o.role === 'preflight-report'));
    const status = end.timedOut ? `timeout (${end.status})` : `${end.status}${end.outcome ? `/${end.outcome}` : ''}`;
    const said = stepSummaries(end.job);
    const note = `upload ${fmtS(uploadMs)}, runtime idle ${fmtMb(idleKb === null ? null : idleKb / 1024)}${said.length ? `; ${said.join(' ')}` : ''}`;
    return { what, file: label, status, ms: end.timedOut ? null : ms, peakMb, note, kind, cold, hasReport, errors };
  } finally {
    await rt.stop();
  }
}

function printTable(list: Row[]): void {
  const head = ['what', 'file', 'status', 'time', 'peak RSS (tree)'];
  const cells = list.map((r) => [r.what, r.file, r.status, r.status.startsWith('timeout') ? `> ${timeoutS} s` : fmtS(r.ms), fmtMb(r.peakMb)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  for (const r of list) {
    if (r.note) console.log(`  ${r.what}, ${r.file}: ${r.note}`);
    for (const e of r.errors ?? []) console.log(`  ${r.what}, ${r.file} ended in error: ${e}`);
  }
}

function target(label: string, met: boolean, figure: string): void {
  console.log(`TARGET ${label}: ${figure} — ${met ? 'met' : 'NOT MET'}`);
}

const cacheDir = values.cache ?? benchCacheDir();
console.log(`Big-file bench (local runtime, this machine; ${pages} pages; per-job limit ${timeoutS} s; cache ${cacheDir})`);
const big = await cachedBigPdf({ pages }, cacheDir);
console.log(`${pages}-page file: ${(big.bytes / 1e6).toFixed(0)} MB, ${big.generated ? `generated in ${fmtS(big.ms)}` : 'from the cache'} (${big.file})`);
const small = wanted('previews') ? await cachedBigPdf({ pages: SMALL_PAGES }, cacheDir) : null;
if (small) console.log(`${SMALL_PAGES}-page file: ${(small.bytes / 1e6).toFixed(0)} MB, ${small.generated ? `generated in ${fmtS(small.ms)}` : 'from the cache'}`);

const withPoppler = toolsAvailable('pdftoppm', 'pdffonts', 'pdfimages');
if (!withPoppler) console.log('poppler side skipped: pdftoppm/pdffonts/pdfimages not found (apt-get install poppler-utils)');
const toolMs = Math.max(timeoutS * 1000, 60_000);

if (wanted('previews')) {
  record(await measureJob('previews', big.file, pages, true));
  for (const [f, n] of [[small!.file, SMALL_PAGES], [big.file, pages]] as const) {
    record(await measureJob('previews', f, n));
    if (withPoppler) {
      const out = await mkdtemp(path.join(tmpdir(), 'proofline-big-ppm-'));
      try {
        const r = await measureTool('pdftoppm', ['-f', '1', '-l', '3', '-r', '72', f, path.join(out, 'p')], toolMs);
        record({ what: 'pdftoppm -f 1 -l 3 -r 72', file: `${n} p`, status: r.ok ? 'ok' : 'failed', ms: r.ms, peakMb: r.peakMb, note: r.ok ? '' : r.err });
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    }
  }
}
for (const kind of ['preflight', 'validate', 'fix'] as const) {
  if (!wanted(kind)) continue;
  record(await measureJob(kind, big.file, pages));
  if (kind === 'preflight' && withPoppler) {
    const fonts = await measureTool('pdffonts', [big.file], toolMs);
    const images = await measureTool('pdfimages', ['-list', big.file], toolMs);
    const ok = fonts.ok && images.ok;
    const peaks = [fonts.peakMb, images.peakMb].filter((m): m is number => m !== null);
    record({
      what: 'pdffonts + pdfimages -list',
      file: `${pages} p`,
      status: ok ? 'ok' : 'failed',
      ms: fonts.ms + images.ms,
      peakMb: peaks.length ? Math.max(...peaks) : null,
      note: ok ? `pdffonts ${fmtS(fonts.ms)} + pdfimages ${fmtS(images.ms)}` : `${fonts.err} ${images.err}`.trim(),
    });
  }
}

console.log('');
printTable(rows);
console.log('');
const done = (r: Row) => r.status.startsWith('done');
const under = (r: Row, s: number) => done(r) && r.ms !== null && r.ms < s * 1000;
for (const r of rows.filter((x) => x.kind === 'previews' && !x.cold)) {
  target(`previews pages 1–3 of the ${r.file} file under 5 s and 1 GB`, under(r, 5) && r.peakMb !== null && r.peakMb < GB, `${r.status}, ${fmtS(r.ms)}, ${fmtMb(r.peakMb)}`);
}
for (const r of rows.filter((x) => x.kind === 'preflight')) target('preflight done with a report under 60 s', under(r, 60) && r.hasReport === true, `${r.status}, ${fmtS(r.ms)}, report ${r.hasReport ? 'delivered' : 'missing'}`);
for (const r of rows.filter((x) => x.kind === 'validate')) target('validate 2b under 30 s', under(r, 30), `${r.status}, ${fmtS(r.ms)}`);
for (const r of rows.filter((x) => x.kind === 'fix')) target('fix under 120 s', under(r, 120), `${r.status}, ${fmtS(r.ms)}`);
const jobs = rows.filter((x) => x.kind !== undefined);
if (jobs.length > 0) {
  const worst = Math.max(...jobs.map((r) => r.peakMb ?? Infinity));
  target('every job under 3 GB peak RSS', Number.isFinite(worst) && worst < 3 * GB, `highest ${Number.isFinite(worst) ? fmtMb(worst) : 'n/a'}`);
}
