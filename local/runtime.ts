/**
 * The whole service on loopback, without AWS: the same route handlers, state
 * machine definitions, workers and DynamoDB/S3 storage code as the cloud, over
 * dynalite and s3rver, with the local orchestrator, webhook scheduler and event
 * bus in place of Step Functions and EventBridge. `bin/start-local.ts` (npm
 * start) runs it; tests start it in-process on ephemeral ports.
 *
 * Start order matters: storage first, then the runtime's environment (the
 * services and every worker thread read their configuration from it; it is
 * handed to the threads explicitly, not written into process.env), then the services, keys,
 * the HTTP front door, and last the recovery of work a previous run left
 * unfinished, so a restart loses nothing, and the retention sweep (retention-sweep.ts).
 */
import '../lambdas/platform/polyfills';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { JOB_DECISION_PATTERN, JOB_TERMINAL_PATTERN } from '../step-definitions/events';
import { createAwsServices } from '../lambdas/adapters/aws';
import { localStateMachineArn, LOCAL_REGION } from '../lambdas/adapters/local/asl-definition';
import { createLocalEventBus } from '../lambdas/adapters/local/local-event-bus';
import { createLocalOrchestrator } from '../lambdas/adapters/local/local-orchestrator';
import { createLocalWebhookScheduler } from '../lambdas/adapters/local/local-webhook-scheduler';
import { issueKey, registerKey, type IssuedKey } from '../lambdas/domain/keys';
import { pipelineInputOf } from '../lambdas/domain/use-cases/create-job';
import { loadConfig, type RuntimeConfig } from '../lambdas/platform/config';
import { setServices } from '../lambdas/platform/services';
import type { Services } from '../lambdas/domain/ports';
import { createGatewayAuthorizer, type AuthorizerHandler } from './gateway-authorizer';
import { startHttpServer, type HttpServer } from './http-server';
import { buildConsole, consoleSecurityHeaders } from '../web/build-console';
import { isRunning, readRuntimeInfo, removeRuntimeInfo, writeRuntimeInfo, PREWARMED } from './runtime-info';
import { DEFAULT_RETENTION_SWEEP_SECONDS, startRetentionSweep } from './retention-sweep';
import { S3RVER_CREDENTIALS, startStandins, useStandInCredentials, type Standins } from './standins';
import type { Meter } from './metering/meter';
import { meteredAuthorizer, meterStandins } from './metering/runtime-metering';
import { s3RequestClass } from './metering/s3-request-class';
import { startStorageGateway, type StorageGateway } from './storage-gateway';
import { localShareKey } from './share-key';
import { createThrottle, throttleLimitsFrom } from './throttle';
import { createWorkerInvoker, pooledFunctions } from './worker-invoker';
import { createWorkerPool, type WorkerPool } from './worker-pool';
import { CONCURRENCY_VARIABLE, enableInvocationScopes } from './invocation-scope';
import { componentLog, type ComponentLog } from '../lambdas/observability/logger';

export const LOCAL_ACCOUNT_ID = 'local';

/** A loopback address nothing listens on (port 1, tcpmux, is never served here). */
const NOWHERE = 'http://127.0.0.1:1';

export interface LocalRuntimeOptions {
  /** API port; 0 = ephemeral. Default: PORT or 3000. */
  port?: number;
  /** Storage port; 0 = ephemeral. Default: STORAGE_PORT, else port + 1 (ephemeral when port is 0). */
  storagePort?: number;
  /** Where data lives (default: DATA_DIR or .local/). Ignored with inMemory. */
  dataDir?: string;
  /** Nothing persisted (tests). */
  inMemory?: boolean;
  /** Environment variables to set before anything reads them (knobs such as SYNC_WAIT_MS). */
  env?: Record<string, string>;
  /** No banner on stdout. */
  quiet?: boolean;
  /**
   * Once serving, load one environment of every pipeline function in the
   * background (worker-pool.ts prewarm), so the first job does not wait for
   * module loading (1–2 s per function under tsx). `npm start` turns it on
   * unless LOCAL_PREWARM=0; tests leave it off.
   */
  prewarm?: boolean;
  /** Where the runtime and its parts report (default: the logger, each part under its own `component`). */
  log?: ComponentLog;
  /**
   * Counts what every job would be billed for in AWS (`npm run cost`,
   * local/metering/): Lambda invocations, API requests, executions, DynamoDB
   * request units (through a counting proxy in front of dynalite), S3 requests
   * and EventBridge events. Off by default: the proxy slows DynamoDB calls.
   */
  metering?: Meter;
}

export interface LocalRuntime {
  url: string;
  storageUrl: string;
  /** A key of account `local`: DEV_API_KEY, or one issued at this start. */
  apiKey: string;
  apiKeyId: string;
  webhookSecret: string;
  dataDir: string | null;
  config: RuntimeConfig;
  services: Services;
  /** Jobs whose executions were restarted at start. */
  resumedJobIds: string[];
  stop(): Promise<void>;
}

export async function startLocalRuntime(opts: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const log = opts.log ?? componentLog('runtime');
  // The runtime's own environment: what its services and worker threads read.
  // process.env itself only gets the stand-in credentials (below), so a test
  // process that starts a runtime does not hand its endpoints to everything else.
  const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.env ?? {}) };
  const previousEnv = { ...process.env };
  // Before any handler runs: the main thread serves many invocations at once, each with its own
  // log keys. Not in the threads: each serves one invocation at a time and has no scopes.
  enableInvocationScopes();
  delete env[CONCURRENCY_VARIABLE];
  const dataDir = opts.inMemory ? null : resolve(opts.dataDir ?? env.DATA_DIR ?? '.local');
  const port = opts.port ?? envInt(env, 'PORT') ?? 3000;
  const storagePort = opts.storagePort ?? envInt(env, 'STORAGE_PORT') ?? (port === 0 ? 0 : port + 1);
  if (dataDir) await refuseIfRunning(dataDir);

  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? LOCAL_REGION;
  const tableName = env.TABLE_NAME ?? 'proofline';
  const bucketName = env.BUCKET_NAME ?? 'proofline-files';

  const cleanup: (() => Promise<unknown>)[] = [];
  const undo = async () => {
    for (const step of cleanup.reverse()) await step().catch((err: unknown) => log('shutdown step failed', err));
    cleanup.length = 0;
  };

  try {
    const standins: Standins = await startStandins({ dataDir: dataDir ?? undefined, region, tableName, bucketName });
    cleanup.push(() => standins.stop());
    // Undone late: handlers still finishing during shutdown keep these services.
    cleanup.push(async () => setServices(undefined));
    // The API's port is needed before it listens: no job may name any of the runtime's own ports
    // (in this order, which tests rely on: API, storage gateway, s3rver, dynalite), and the
    // console it serves is the one origin the storage gateway lets upload from a browser.
    // An ephemeral one is held until the API listens: released at once, another listener (this
    // runtime's own stand-ins, or another process's) could be given it meanwhile (EADDRINUSE in
    // a full test run, where two test processes start runtimes at the same time).
    const held = port === 0 ? await holdLoopbackPort() : null;
    cleanup.push(async () => held?.release());
    const apiPort = held?.port ?? port;
    const meter = opts.metering;
    const storage: StorageGateway = await startStorageGateway({
      upstream: standins.s3rver,
      upstreamToken: standins.s3rverToken,
      port: storagePort,
      corsOrigins: consoleOrigins(apiPort),
      region,
      credentials: S3RVER_CREDENTIALS,
      log: opts.log,
      onRequest: meter && ((method, url) => meter.s3Request(s3RequestClass(method, url))),
    });
    cleanup.push(() => storage.close());
    let dynamodbEndpoint = standins.dynamodb;
    if (meter) {
      const metered = await meterStandins(meter, { standins, region, bucketName, log });
      cleanup.push(() => metered.close());
      dynamodbEndpoint = metered.dynamodbEndpoint;
    }
    const endpoints = [standins.s3rver, standins.dynamodb, ...(dynamodbEndpoint === standins.dynamodb ? [] : [dynamodbEndpoint])];
    const ownPorts = [apiPort, storage.port, ...endpoints.map((u) => Number(new URL(u).port))];

    // The main thread's SDK clients resolve credentials from process.env.
    useStandInCredentials();
    useStandInCredentials(env);
    Object.assign(env, {
      LOCAL_RESERVED_PORTS: ownPorts.join(','),
      AWS_REGION: region,
      DYNAMODB_ENDPOINT: dynamodbEndpoint,
      S3_ENDPOINT: storage.url,
      S3_FORCE_PATH_STYLE: 'true',
      TABLE_NAME: tableName,
      BUCKET_NAME: bucketName,
      NETWORK_MODE: 'local',
      STATE_MACHINE_ARN: localStateMachineArn('pipeline'),
      STANDARD_STATE_MACHINE_ARN: localStateMachineArn('pipeline-standard'),
      WEBHOOK_STATE_MACHINE_ARN: localStateMachineArn('webhook-retries'),
      EVENT_BUS_NAME: 'local',
      // Step Functions and EventBridge have local replacements in this thread's
      // services only; should a worker thread reach for the AWS clients, it fails
      // at once on a closed loopback port instead of calling AWS.
      SFN_ENDPOINT: NOWHERE,
      EVENTS_ENDPOINT: NOWHERE,
      SHARE_SIGNING_KEY: env.SHARE_SIGNING_KEY || localShareKey(dataDir),
    });
    const config = loadConfig(env);

    const timeoutOverride = envInt(env, 'LOCAL_WORKER_TIMEOUT_MS');
    const pool: WorkerPool = createWorkerPool({
      functions: pooledFunctions(),
      timeoutMs: timeoutOverride,
      idleMs: envInt(env, 'LOCAL_WORKER_IDLE_MS'),
      env,
      log: opts.log,
      onInvoked: meter?.lambdaInvoked,
    });
    cleanup.push(() => pool.close());
    const invoke = createWorkerInvoker({ pool, timeoutMs: timeoutOverride, onInvoked: meter?.lambdaInvoked });
    const orchestrator = createLocalOrchestrator({ invoke, log: opts.log, onExecutionEnded: meter && ((r) => meter.executionEnded(r)) });
    cleanup.push(() => orchestrator.stopAll());
    const webhookScheduler = createLocalWebhookScheduler({
      invoke,
      stateFile: dataDir ? join(dataDir, 'webhook-retries.json') : undefined,
      log: opts.log,
      onExecutionEnded: meter && ((r) => meter.executionEnded({ kind: 'standard', ...r })),
    });
    cleanup.push(() => webhookScheduler.stopAll());
    const events = createLocalEventBus({ region, log: opts.log, onPublished: meter?.eventPublished });
    cleanup.push(async () => events.close());
    // The cloud's EventBridge rule: terminal jobs with a webhook → the webhook caller.
    events.addRule('job-terminal-webhooks', JOB_TERMINAL_PATTERN, (event) => invoke('webhookCaller', event));
    // And the customer's decisions on shared proofs → the same caller (job.approved / job.changes_requested).
    events.addRule('job-decision-webhooks', JOB_DECISION_PATTERN, (event) => invoke('webhookCaller', event));

    const services: Services = { ...createAwsServices(config), orchestrator, webhookScheduler, events };
    setServices(services);

    const key = await localKey(services, config.devApiKey);

    const consoleFiles = await buildConsole();
    await held?.release();
    const http: HttpServer = await startHttpServer({
      port: apiPort,
      console: { files: consoleFiles, headers: consoleSecurityHeaders(new URL(storage.url).origin) },
      maxBodyBytes: config.maxBodyBytes,
      authorizer: createGatewayAuthorizer({ handler: meter ? meteredAuthorizer(meter, loadAuthorizer) : loadAuthorizer, ttlSeconds: config.authCacheTtlSeconds }),
      throttle: createThrottle(throttleLimitsFrom(env)),
      integrationTimeoutMs: envInt(env, 'LOCAL_GATEWAY_TIMEOUT_MS'),
      coldStartMs: envInt(env, 'LOCAL_COLD_START_MS'),
      log: opts.log,
      metering: meter,
    });
    // Closed first on stop: no new requests while the rest shuts down.
    cleanup.push(() => http.close());

    if (dataDir) {
      writeRuntimeInfo(dataDir, {
        pid: process.pid,
        port: http.port,
        storagePort: storage.port,
        endpoints: { dynamodb: standins.dynamodb, s3: storage.url, api: http.url },
        tableName,
        bucketName,
        region,
        startedAt: new Date().toISOString(),
      });
      cleanup.push(async () => removeRuntimeInfo(dataDir));
    }

    const resumedJobIds = await resumeUnfinishedJobs(services, log);
    await webhookScheduler.resume();
    const sweep = startRetentionSweep(services, sweepSeconds(env), log);
    cleanup.push(() => sweep.stop());

    if (opts.prewarm) {
      const warming = Date.now();
      // Logged when done: bench:big waits for it to time warm jobs (test/bench/support/local-runtime-child.ts).
      void pool.prewarm().then(() => log(`${PREWARMED} in ${Date.now() - warming} ms`));
    }
    if (!opts.quiet) printBanner({ url: http.url, storageUrl: storage.url, dataDir, key, devKey: config.devApiKey !== undefined, resumed: resumedJobIds.length });

    let stopping: Promise<void> | undefined;
    return {
      url: http.url,
      storageUrl: storage.url,
      apiKey: key.key,
      apiKeyId: key.id,
      webhookSecret: key.webhookSecret,
      dataDir,
      config,
      services,
      resumedJobIds,
      stop: () =>
        (stopping ??= (async () => {
          await undo();
          restoreEnv(previousEnv);
        })()),
    };
  } catch (err) {
    await undo();
    restoreEnv(previousEnv);
    throw err;
  }
}

/** DEV_API_KEY registered verbatim (idempotent), or a new key, for account `local`. */
async function localKey(services: Services, devApiKey: string | undefined): Promise<IssuedKey> {
  const { keys, ids, clock } = services;
  return devApiKey
    ? registerKey(keys, ids, clock, { secret: devApiKey, accountId: LOCAL_ACCOUNT_ID })
    : issueKey(keys, ids, clock, { accountId: LOCAL_ACCOUNT_ID });
}

/**
 * Restarts the executions of jobs a previous run left pending or running.
 * Workers are idempotent (a step already done is not redone), so an execution
 * started again picks up where the interrupted one stopped.
 */
async function resumeUnfinishedJobs(services: Services, log: ComponentLog): Promise<string[]> {
  const resumed: string[] = [];
  for (const jobId of await services.jobs.listUnfinishedJobIds()) {
    try {
      const graph = await services.jobs.getGraphById(jobId);
      if (!graph) continue;
      const workflowId = await services.orchestrator.startJob(pipelineInputOf(graph));
      if (graph.job.workflowId !== workflowId) await services.jobs.patchJob(jobId, { workflowId });
      resumed.push(jobId);
    } catch (err) {
      log('could not resume the job', err, { jobId });
    }
  }
  return resumed;
}

const loadAuthorizer = async (): Promise<AuthorizerHandler> => {
  const mod = (await import('../lambdas/api/authorizer')) as { handler: AuthorizerHandler };
  return mod.handler;
};

/** Another live runtime owns the data directory (dynalite's store allows one process). */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

async function refuseIfRunning(dataDir: string): Promise<void> {
  const info = readRuntimeInfo(dataDir);
  if (info && info.pid !== process.pid && (await isRunning(info))) {
    throw new DataDirInUseError(`A local runtime (pid ${info.pid}) already uses ${dataDir} at ${info.endpoints.api}; stop it or choose another DATA_DIR.`);
  }
}

/** Where a browser reaches the console the API's server serves: its loopback address, by number or by name. */
export function consoleOrigins(apiPort: number): string[] {
  return [`http://127.0.0.1:${apiPort}`, `http://localhost:${apiPort}`];
}

/** A loopback port, listened on until released, so no other listener is given it meanwhile. */
function holdLoopbackPort(): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolvePort, reject) => {
    const holder = createServer();
    holder.once('error', reject);
    holder.listen(0, '127.0.0.1', () => {
      const { port } = holder.address() as AddressInfo;
      let released: Promise<void> | undefined;
      const release = (): Promise<void> => (released ??= new Promise((done) => holder.close(() => done())));
      resolvePort({ port, release });
    });
  });
}

/** RETENTION_SWEEP_SECONDS: how often expired jobs are deleted; a fraction is allowed (tests). */
function sweepSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.RETENTION_SWEEP_SECONDS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETENTION_SWEEP_SECONDS;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`RETENTION_SWEEP_SECONDS must be a positive number, got "${raw}"`);
  return n;
}

function envInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

/** Puts process.env (the credentials) back as it was before start (tests start several runtimes in one process). */
function restoreEnv(previous: NodeJS.ProcessEnv): void {
  for (const k of Object.keys(process.env)) if (!(k in previous)) delete process.env[k];
  Object.assign(process.env, previous);
}

function printBanner(p: { url: string; storageUrl: string; dataDir: string | null; key: IssuedKey; devKey: boolean; resumed: number }): void {
  const lines = [
    '',
    `Proofline local runtime is ready at ${p.url}`,
    `  storage (S3):     ${p.storageUrl}`,
    `  data:             ${p.dataDir ?? '(in memory)'}`,
    ...(p.resumed ? [`  resumed jobs:     ${p.resumed}`] : []),
    '',
    p.devKey ? `  API key (DEV_API_KEY, account ${p.key.account}):` : `  API key (new, account ${p.key.account}; set DEV_API_KEY to keep one across restarts):`,
    `    ${p.key.key}`,
    `  webhook signing secret: ${p.key.webhookSecret}`,
    '',
    '  Try:',
    `    curl ${p.url}/health`,
    `    curl -H "Authorization: Bearer ${p.key.key}" ${p.url}/jobs`,
    '  More keys: npm run keys -- create --account NAME  (same DATA_DIR and PORT)',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
