/**
 * The job kinds `npm run cost` prices, each sent the way a client sends it:
 * the file uploaded (POST /uploads, then the presigned POST to storage, as the
 * console does and as any file too large for a JSON body must be), the job
 * created with a `fileRef`, then
 * - for the async kinds (preflight, fix, previews): a webhook, and once it
 *   arrives one GET /jobs/{id} for the results and their download URLs
 *   (the webhook body carries no URLs, docs/api.md §9);
 * - for validate, sync by default: the answer is the finished job, no webhook
 *   and no GET (a 202 is followed by polling, as a client would).
 * Files are built in code. Nothing downloads the outputs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalRuntime } from '../../../local/runtime';
import type { LocalOrchestrator } from '../../../lambdas/adapters/local/local-orchestrator';
import type { LocalEventBus } from '../../../lambdas/adapters/local/local-event-bus';
import type { LocalWebhookScheduler } from '../../../lambdas/adapters/local/local-webhook-scheduler';
import { buildPdf, pdfaSpec } from '../../support/pdf-fixtures';
import { onePagePdfBytes } from '../../e2e/support/files';
import { buildPreviewsSpeedPdf } from './previews-speed-pdf';

export interface JobKind {
  id: 'preflight' | 'fix' | 'previews' | 'validate';
  title: string;
  file(): Promise<Uint8Array>;
  endpoint: string;
  /** The source's fields besides the fileRef, and the body's other fields. */
  source: Record<string, unknown>;
  body: Record<string, unknown>;
  /** Async with a webhook and one GET after it; otherwise sync. */
  async: boolean;
}

export const JOB_KINDS: readonly JobKind[] = [
  {
    id: 'preflight',
    title: 'one-page preflight',
    file: () => onePagePdfBytes(),
    endpoint: '/jobs/preflight',
    source: {},
    body: {},
    async: true,
  },
  {
    id: 'fix',
    title: '20-page fix with repreflight',
    // Document JavaScript: a finding of the default profile that a recommended fix removes.
    file: () => onePagePdfBytes({ pages: 20, javascript: true }),
    endpoint: '/jobs/fix',
    source: {},
    body: { repreflight: true },
    async: true,
  },
  {
    id: 'previews',
    title: '200-page previews',
    file: () => buildPreviewsSpeedPdf({ pages: 200 }),
    endpoint: '/jobs/previews',
    source: {},
    body: {},
    async: true,
  },
  {
    id: 'validate',
    title: '3-page validate (PDF/A-2b)',
    file: () => buildPdf(pdfaSpec(2, 'b', { pages: 3 })),
    endpoint: '/jobs/validate',
    source: { profile: '2b' },
    body: {},
    async: false,
  },
];

type Json = Record<string, any>;

async function call(rt: LocalRuntime, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${rt.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${rt.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** POST /uploads, then the file to storage with the presigned POST's fields; returns the fileRef. */
export async function uploadFile(rt: LocalRuntime, bytes: Uint8Array, name: string): Promise<string> {
  const created = await call(rt, 'POST', '/uploads', { mimeType: 'application/pdf', sizeBytes: bytes.byteLength });
  if (created.status !== 200) throw new Error(`POST /uploads answered ${created.status}: ${JSON.stringify(created.json)}`);
  const form = new FormData();
  for (const [k, v] of Object.entries(created.json.upload.fields as Record<string, string>)) form.append(k, v);
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
  const stored = await fetch(created.json.upload.url, { method: 'POST', body: form });
  if (stored.status >= 300) throw new Error(`the upload was refused: ${stored.status} ${await stored.text()}`);
  return created.json.fileRef as string;
}

export interface WebhookReceiver {
  url: string;
  /** Resolves with the job.completed body for the job once it has arrived. */
  completed(jobId: string, timeoutMs: number): Promise<Json>;
  close(): Promise<void>;
}

/** A loopback webhook receiver answering 204 (the local runtime allows http to loopback). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Json[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    async completed(jobId, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const body = received.find((b) => b.type === 'job.completed' && (b.id === jobId || b.jobId === jobId));
        if (body) return body;
        if (Date.now() > deadline) throw new Error(`no webhook for job ${jobId} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
}

/** One job of the kind, as its client sends it; returns the finished job. */
export async function runJobAsClient(rt: LocalRuntime, kind: JobKind, file: Uint8Array, webhook: WebhookReceiver, timeoutMs: number): Promise<Json> {
  const fileRef = await uploadFile(rt, file, `${kind.id}.pdf`);
  const body = { ...kind.body, sources: [{ fileRef, ...kind.source }], ...(kind.async ? { webhook: webhook.url } : {}) };
  const created = await call(rt, 'POST', kind.endpoint, body);
  if (created.status >= 300) throw new Error(`POST ${kind.endpoint} answered ${created.status}: ${JSON.stringify(created.json)}`);
  const jobId = created.json.job.id as string;
  if (kind.async) {
    await webhook.completed(jobId, timeoutMs);
    return (await call(rt, 'GET', `/jobs/${jobId}`)).json.job as Json;
  }
  let job = created.json.job as Json;
  const deadline = Date.now() + timeoutMs;
  while (job.status !== 'done' && job.status !== 'error') {
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 1000));
    job = (await call(rt, 'GET', `/jobs/${jobId}`)).json.job as Json;
  }
  return job;
}

/**
 * Waits until nothing of the last job is still going on in the runtime: no
 * execution running, no event delivery (the webhook caller) or webhook retry
 * in flight; then a moment for the execution reports and the threads' output.
 */
export async function untilQuiet(rt: LocalRuntime): Promise<void> {
  const orchestrator = rt.services.orchestrator as LocalOrchestrator;
  const events = rt.services.events as LocalEventBus;
  const webhooks = rt.services.webhookScheduler as LocalWebhookScheduler;
  for (;;) {
    await events.whenIdle();
    await Promise.all(orchestrator.running().map((id) => orchestrator.whenDone(id)));
    await webhooks.whenIdle();
    await new Promise((r) => setTimeout(r, 300));
    if (orchestrator.running().length === 0 && webhooks.pending().length === 0) return;
  }
}
