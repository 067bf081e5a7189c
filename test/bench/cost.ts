/**
 * `npm run cost` — what a job costs in AWS per 1,000 jobs, by job kind, from a
 * real local run (issue 18). For each kind (test/bench/support/cost-jobs.ts:
 * one-page preflight, 20-page fix with repreflight, 200-page previews, 3-page
 * PDF/A-2b validate) it starts a fresh local runtime in this process with a
 * meter (local/metering/), runs one job to warm the runtime (not counted),
 * then `--runs` jobs one after another as a client sends them, and prices what
 * they consumed with the us-east-1 list prices (local/metering/prices.ts):
 * every count in the table was measured, and averaged over the runs.
 *
 * Prints per kind: the itemised table, the Lambda invocations by function,
 * the total per 1,000 jobs, and what the same runs would cost if every
 * execution ran in a Standard machine (the pipeline before Express); then the
 * one-page preflight against the target (≤ $0.10 per 1,000 jobs).
 *
 * Options: --runs N (5), --only preflight,fix,previews,validate,
 * --retention-days D (30), --timeout S per job (600).
 */
import '../../lambdas/platform/polyfills';
import { parseArgs } from 'node:util';
import { costModel, lambdaGbSeconds, type CostModel } from '../../local/metering/cost-model';
import { countLogBytes } from '../../local/metering/log-bytes';
import { createMeter, type MeteredUsage } from '../../local/metering/meter';
import { startLocalRuntime } from '../../local/runtime';
import { JOB_KINDS, runJobAsClient, startWebhookReceiver, untilQuiet, type JobKind } from './support/cost-jobs';

/** The issue's target for a one-page preflight job. */
const TARGET_PER_THOUSAND = 0.1;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    only: { type: 'string' },
    'retention-days': { type: 'string', default: '30' },
    timeout: { type: 'string', default: '600' },
  },
});
const runs = Number(values.runs);
const retentionDays = Number(values['retention-days']);
const timeoutMs = Number(values.timeout) * 1000;
const only = values.only?.split(',').map((s) => s.trim());
const kinds = JOB_KINDS.filter((k) => !only || only.includes(k.id));

interface KindResult {
  kind: JobKind;
  model: CostModel;
  usage: MeteredUsage;
  seconds: number;
  outcome: string;
  fileBytes: number;
}

// Everything the functions write from here on is counted (CloudWatch Logs) and not shown;
// this script's own lines and the runtime's messages go through passThrough, uncounted.
const logs = countLogBytes();
const say = (text: string) => logs.passThrough(`${text}\n`);

async function measure(kind: JobKind): Promise<KindResult> {
  const meter = createMeter();
  const webhook = await startWebhookReceiver();
  const rt = await startLocalRuntime({
    port: 0,
    storagePort: 0,
    inMemory: true,
    quiet: true,
    metering: meter,
    log: (m, e) => say(`[local] ${m}${e ? ` ${e instanceof Error ? e.message : String(e)}` : ''}`),
  });
  try {
    const file = await kind.file();
    say(`${kind.title}: ${(file.byteLength / 1024).toFixed(0)} KB file; warming up`);
    await runJobAsClient(rt, kind, file, webhook, timeoutMs);
    await untilQuiet(rt);
    const storedBefore = await meter.storedBytes!();
    meter.reset();
    logs.reset();
    const started = performance.now();
    let outcome = '';
    for (let i = 0; i < runs; i++) {
      const job = await runJobAsClient(rt, kind, file, webhook, timeoutMs);
      await untilQuiet(rt);
      outcome = `${job.status}/${job.outcome}${kind.id === 'fix' ? ` (autofix ${stepOutcome(job, 'autofix')})` : ''}`;
      say(`  run ${i + 1}/${runs}: ${outcome}`);
      if (job.status !== 'done') throw new Error(`${kind.title} ended ${job.status}: ${JSON.stringify(job.tasks?.[0]?.reason ?? job)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const usage = meter.usage();
    const storedBytesPerJob = ((await meter.storedBytes!()) - storedBefore) / runs;
    const model = costModel({ usage, runs, storedBytesPerJob, retentionDays, logBytesPerJob: logs.bytes() / runs });
    return { kind, model, usage, seconds, outcome, fileBytes: file.byteLength };
  } finally {
    await rt.stop();
    await webhook.close();
  }
}

function stepOutcome(job: Record<string, any>, type: string): string {
  const step = (job.tasks?.[0]?.steps as { type: string; outcome?: string }[] | undefined)?.find((s) => s.type === type);
  return step?.outcome ?? 'not run';
}

const megabytes = (n: number) => (n < 1024 ** 2 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`);
const money = (n: number) => `$${n.toFixed(5)}`;
const count = (n: number) => (n === 0 ? '0' : n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3));
const price = (n: number) => (n === 0 ? 'free' : `$${n.toFixed(10).replace(/0+$/, '').replace(/\.$/, '')}`);

function table(headers: string[], rows: string[][], rightAligned: number[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => `| ${r.map((c, i) => (rightAligned.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [fmt(headers), `|${widths.map((w, i) => (rightAligned.includes(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...rows.map(fmt)].join('\n');
}

function report(r: KindResult): string {
  const { model, usage } = r;
  const lines = model.lines.map((l) => [
    l.service,
    l.item,
    count(l.count),
    l.unit,
    price(l.unitPrice),
    l.perThousandJobs === null ? (l.note ?? 'not measured') : money(l.perThousandJobs),
  ]);
  const byFunction = new Map<string, { n: number; ms: number; gbs: number; mb: number }>();
  for (const i of usage.lambda) {
    const f = byFunction.get(i.functionName) ?? { n: 0, ms: 0, gbs: 0, mb: i.memoryMb };
    f.n++;
    f.ms += i.durationMs;
    f.gbs += lambdaGbSeconds(i.durationMs, i.memoryMb);
    byFunction.set(i.functionName, f);
  }
  const functions = [...byFunction].sort((a, b) => b[1].gbs - a[1].gbs).map(([name, f]) => [name, String(f.mb), count(f.n / runs), (f.ms / f.n).toFixed(0), count(f.gbs / runs)]);
  const executions = ['express', 'standard'].map((k) => {
    const xs = usage.executions.filter((e) => e.kind === k);
    return xs.length ? `${k}: ${count(xs.length / runs)} per job, ${count(xs.reduce((s, e) => s + e.stateTransitions, 0) / xs.length)} transitions and ${(xs.reduce((s, e) => s + e.durationMs, 0) / xs.length / 1000).toFixed(2)} s each` : `${k}: none`;
  });
  return [
    `## ${r.kind.title} — ${megabytes(r.fileBytes)} file, ${runs} runs, ${r.outcome}, ${(r.seconds / runs).toFixed(1)} s per job`,
    '',
    table(['service', 'item', 'per job', 'unit', 'unit price', 'per 1,000 jobs'], lines, [2, 4, 5]),
    '',
    `Total: ${money(model.total)} per 1,000 jobs. With every execution in a Standard machine: ${money(model.allStandardTotal)}.`,
    `Executions: ${executions.join('; ')}. DynamoDB requests: ${count(usage.dynamodb.requests / runs)} per job.`,
    '',
    table(['Lambda function', 'MB', 'invocations per job', 'mean ms', 'GB-s per job'], functions, [1, 2, 3, 4]),
    '',
  ].join('\n');
}

/** Every kind side by side: $ per 1,000 jobs by service row, the totals and the all-Standard comparison. */
function summary(rs: KindResult[]): string {
  const first = rs[0]!.model.lines;
  const rows = first.map((l, i) => [`${l.service}: ${l.item}`, ...rs.map((r) => {
    const cell = r.model.lines[i]!.perThousandJobs;
    return cell === null ? 'not measured' : money(cell);
  })]);
  rows.push(['**total**', ...rs.map((r) => `**${money(r.model.total)}**`)]);
  rows.push(['every execution in a Standard machine', ...rs.map((r) => money(r.model.allStandardTotal))]);
  const right = rs.map((_, i) => i + 1);
  return [`## Summary: $ per 1,000 jobs, ${runs} runs each`, '', table(['', ...rs.map((r) => `${r.kind.title} (${megabytes(r.fileBytes)})`)], rows, right)].join('\n');
}

const results: KindResult[] = [];
try {
  for (const kind of kinds) results.push(await measure(kind));
} finally {
  logs.stop();
}

const out: string[] = [
  `# Cost per 1,000 jobs (us-east-1 list prices, Lambda arm64), measured on the local runtime, ${new Date().toISOString().slice(0, 10)}`,
  '',
  'Counts: averaged over the runs after one warm-up job, in a fresh in-process runtime per kind. Durations are',
  'x64 under tsx on a shared 2-core machine, not Graviton: Lambda and Express GB-seconds are indicative.',
  `Express memory is assumed at the 64 MB minimum. S3 storage: bytes left in the bucket per job, kept ${retentionDays} days.`,
  'CloudWatch Logs: bytes the functions wrote to stdout and stderr (Lambda platform lines START/END/REPORT and the',
  "Express machine's own execution log are not produced locally and not counted). Lambda INIT (cold start) duration is not counted.",
  '',
  ...results.map(report),
];
if (results.length > 1) out.push(summary(results), '');
const preflight = results.find((r) => r.kind.id === 'preflight');
if (preflight) {
  const pass = preflight.model.total <= TARGET_PER_THOUSAND;
  out.push(
    `One-page preflight: ${money(preflight.model.total)} per 1,000 jobs against the target of ≤ ${money(TARGET_PER_THOUSAND)}: ${pass ? 'PASS' : 'FAIL'}.`,
    `The same runs with every job in a Standard machine (before): ${money(preflight.model.allStandardTotal)} per 1,000 jobs (the issue's old estimate: $0.37).`,
  );
}
process.stdout.write(`${out.join('\n')}\n`);
