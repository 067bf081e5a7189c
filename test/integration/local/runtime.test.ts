import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalRuntime, DataDirInUseError, type LocalRuntime } from '../../../local/runtime';
import { connectToLocalData } from '../../../local/connect';
import { createAwsServices } from '../../../lambdas/adapters/aws';
import { createJob } from '../../../lambdas/domain/use-cases/create-job';
import { issueKey, listKeys } from '../../../lambdas/domain/keys';
import { isTerminal } from '../../../lambdas/domain/model';
import { JOB_REQUEST_DEFAULTS } from '../../../lambdas/domain/use-cases/job-request';

const KNOBS = { AUTH_CACHE_TTL_SECONDS: '0', WEBHOOK_RETRY_SCHEDULE: '0,0', WEBHOOK_TIMEOUT_MS: '2000' };

async function get(url: string, key?: string) {
  const res = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as Record<string, unknown> };
}

/** A loopback webhook receiver (the local runtime allows http to loopback). */
async function webhookReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the local runtime', () => {
  let dataDir: string;
  let runtime: LocalRuntime | undefined;
  // What the environment held before any runtime started here. Test files may
  // share a worker process, so it need not be empty; it must come back as it was.
  const envBefore = { DEV_API_KEY: process.env.DEV_API_KEY, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'proofline-runtime-'));
  });
  afterAll(async () => {
    await runtime?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts in-process on ephemeral loopback ports and answers /health without a key', async () => {
    const started = Date.now();
    runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: KNOBS });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(runtime.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(runtime.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const health = await get(`${runtime.url}/health`);
    expect(health.status).toBe(200);
    expect(health.requestId).toBeTruthy();
  });

  it('answers unknown routes, wrong methods and oversized bodies itself, in the contract’s error shape', async () => {
    const unknown = await get(`${runtime!.url}/nothing-here`);
    expect(unknown).toMatchObject({ status: 404, body: { error: true, code: 'route_not_found' } });
    expect(unknown.body.requestId).toBe(unknown.requestId);
    const wrongMethod = await fetch(`${runtime!.url}/health`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    const huge = await fetch(`${runtime!.url}/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${runtime!.apiKey}`, 'content-type': 'application/json' },
      body: 'x'.repeat(runtime!.config.maxBodyBytes + 1),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('issues a key of account local at start that the real authoriser accepts', async () => {
    expect(runtime!.apiKey).toMatch(/^sk_(live|test)_/);
    expect(runtime!.webhookSecret).toMatch(/^whsec_/);
    expect((await get(`${runtime!.url}/jobs`, runtime!.apiKey)).status).toBe(200);
    const refused = await get(`${runtime!.url}/jobs`, `${runtime!.apiKey}x`);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: true, code: 'unauthorized', requestId: refused.requestId });
  });

  it('writes runtime.json so the keys tool can reach the running data, and refuses a second runtime on it', async () => {
    const info = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8'));
    expect(info).toMatchObject({ pid: process.pid, port: Number(new URL(runtime!.url).port), storagePort: Number(new URL(runtime!.storageUrl).port) });

    const local = await connectToLocalData(dataDir);
    try {
      expect(local.viaRunningRuntime).toBe(true);
      expect(local.config.networkMode).toBe('local');
      const services = createAwsServices(local.config);
      const issued = await issueKey(services.keys, services.ids, services.clock, { accountId: 'shop-b' });
      expect((await get(`${runtime!.url}/jobs`, issued.key)).status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('keeps data across a restart: keys issued before still authorise after', async () => {
    const before = runtime!;
    const keys = (await listKeys(before.services.keys)).map((k) => k.id);
    await before.stop();
    runtime = undefined;
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);

    // With the runtime down, the keys tool opens the data itself.
    const offline = await connectToLocalData(dataDir);
    try {
      expect(offline.viaRunningRuntime).toBe(false);
      expect((await listKeys(createAwsServices(offline.config).keys)).map((k) => k.id)).toEqual(keys);
    } finally {
      await offline.close();
    }

    runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: KNOBS });
    expect((await get(`${runtime.url}/jobs`, before.apiKey)).status).toBe(200);
  });

  it('registers DEV_API_KEY verbatim for account local, again on every start', async () => {
    await runtime!.stop();
    runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: { ...KNOBS, DEV_API_KEY: 'dev-secret-123' } });
    expect(runtime.apiKey).toBe('dev-secret-123');
    expect((await get(`${runtime.url}/jobs`, 'dev-secret-123')).status).toBe(200);
    const id = runtime.apiKeyId;
    await runtime.stop();
    runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: { ...KNOBS, DEV_API_KEY: 'dev-secret-123' } });
    expect(runtime.apiKeyId).toBe(id);
    expect(runtime.config.devApiKey).toBe('dev-secret-123');
    // The runtime's settings live in its own environment, not in this process's.
    expect(process.env.DEV_API_KEY).toBe(envBefore.DEV_API_KEY);
    expect(process.env.DYNAMODB_ENDPOINT).toBe(envBefore.DYNAMODB_ENDPOINT);
  });

  it('puts the environment back when it stops', async () => {
    await runtime!.stop();
    runtime = undefined;
    expect(process.env.DEV_API_KEY).toBe(envBefore.DEV_API_KEY);
    expect(process.env.DYNAMODB_ENDPOINT).toBe(envBefore.DYNAMODB_ENDPOINT);
  });

  it('refuses to start on a data directory another live runtime uses, but not on a stale record of one', async () => {
    const { writeRuntimeInfo } = await import('../../../local/runtime-info');
    const other = join(dataDir, 'other');
    // Another runtime: a live pid (1 is never this test) whose dynalite answers.
    const fakeDynalite = http.createServer((_req, res) => res.writeHead(400).end());
    await new Promise<void>((r) => fakeDynalite.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(fakeDynalite.address() as AddressInfo).port}`;
    const info = { pid: 1, port: 1, storagePort: 2, endpoints: { dynamodb: endpoint, s3: 'y', api: 'z' }, tableName: 't', bucketName: 'b', region: 'us-east-1', startedAt: '' };
    writeRuntimeInfo(other, info);
    try {
      await expect(startLocalRuntime({ port: 0, storagePort: 0, dataDir: other, quiet: true })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await new Promise<void>((r) => fakeDynalite.close(() => r()));
    }
    // Nothing answers any more: the record is stale (a reused pid), so it starts.
    const started = await startLocalRuntime({ port: 0, storagePort: 0, dataDir: other, quiet: true });
    await started.stop();
  });

  it('resumes a job a previous run left unfinished, and its terminal event reaches the webhook', async () => {
    const receiver = await webhookReceiver();
    try {
      runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: KNOBS });
      const s = runtime.services;
      // A job accepted but never started, as if the runtime died right after accepting it.
      const neverStarted = { startJob: async () => 'lost', continueJob: async () => 'lost', stop: async () => {} };
      const graph = await createJob(
        { ...s, orchestrator: neverStarted },
        { accountId: 'local', keyId: runtime.apiKeyId, role: 'standard' },
        {
          ...JOB_REQUEST_DEFAULTS,
          endpoint: 'jobs',
          sources: [{ input: { kind: 'file', bytes: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') }, name: 'a.pdf', clientRef: null, mimeType: null, steps: [{ type: 'preflight', params: {} }] }],
          webhook: { url: receiver.url },
          metaData: null,
        },
      );
      const jobId = graph.job.id;
      expect((await s.jobs.getJob('local', jobId))?.status).toBe('pending');
      await runtime.stop();

      runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: KNOBS });
      expect(runtime.resumedJobIds).toContain(jobId);
      const job = await until('the resumed job to end', async () => {
        const j = await runtime!.services.jobs.getJob('local', jobId);
        return j && isTerminal(j.status) ? j : null;
      });
      expect(job.workflowId).toBe(`arn:aws:states:us-east-1:000000000000:execution:proofline-local-pipeline:${jobId}`);

      const delivery = await until('the webhook', async () => receiver.received[0]);
      expect(delivery.body).toMatchObject({ type: 'job.completed', id: jobId });
      expect(delivery.headers['webhook-id']).toBeTruthy();
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
    } finally {
      await receiver.close();
    }
  });
});
