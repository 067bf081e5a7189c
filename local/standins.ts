/**
 * The stand-ins for DynamoDB and S3: dynalite and s3rver on loopback ports,
 * persisted under the data directory (`<dataDir>/dynamodb`, `<dataDir>/s3`) so
 * a restart finds everything again, or in memory / a throw-away directory when
 * there is no data directory (tests). The table and bucket are provisioned with
 * the AWS adapters' own provisioning functions, from the same TABLE_SCHEMA CDK
 * deploys, so local and cloud storage have one shape.
 *
 * s3rver answers anyone on loopback, signed or not, and lists every account's
 * files (issue 16 item 5). Its port therefore refuses every request that does
 * not carry this start's token (S3RVER_TOKEN_HEADER), which only the storage
 * gateway and provisioning send: the signing gateway is the one way in.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { provisionBucket, provisionTable } from '../lambdas/adapters/aws';
import { closeDynaliteIteratorsOnDestroy } from './dynalite-iterators';
import { addMissingIndexes } from './table-indexes';

/** s3rver accepts only its own account's key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * Points the SDK's default credential chain at the stand-ins' key pair. Local
 * runs and tests never talk to AWS, so a developer's own credentials are
 * replaced rather than risked, and should the chain ever fall through it must
 * not reach for the instance metadata address (loopback traffic only).
 */
export function useStandInCredentials(env: NodeJS.ProcessEnv = process.env): void {
  env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  delete env.AWS_PROFILE;
  env.AWS_EC2_METADATA_DISABLED = 'true';
}

interface DynaliteOptions { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }
interface S3rverOptions { address: string; port: number; silent: boolean; directory: string; resetOnClose?: boolean }
interface S3rverInstance { run(): Promise<AddressInfo>; close(): Promise<void>; httpServer?: Server; callback(): RequestListener }

/** The header that admits a request to s3rver's port; its value is made anew at each start. */
export const S3RVER_TOKEN_HEADER = 'x-proofline-s3rver-token';

// Both are CommonJS without type declarations.
const requireCjs = createRequire(import.meta.url);
const dynalite = requireCjs('dynalite') as (options?: DynaliteOptions) => Server;
const S3rver = requireCjs('s3rver') as new (options: S3rverOptions) => S3rverInstance;

export interface StandinsOptions {
  /** Persist under this directory; absent = in memory, gone at stop. */
  dataDir?: string;
  region: string;
  tableName: string;
  bucketName: string;
  /** Ports for dynalite and s3rver; 0 (default) = ephemeral. */
  dynamodbPort?: number;
  s3Port?: number;
}

export interface Standins {
  /** dynalite's endpoint. */
  dynamodb: string;
  /** s3rver's own endpoint (the services use the storage gateway in front of it). */
  s3rver: string;
  /** What S3RVER_TOKEN_HEADER must carry for s3rver to answer. */
  s3rverToken: string;
  stop(): Promise<void>;
}

export async function startDynalite(opts: { path?: string; port?: number } = {}): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (opts.path) await mkdir(opts.path, { recursive: true });
  // Else every Query and Scan leaves a LevelDB iterator open (dynalite-iterators.ts).
  closeDynaliteIteratorsOnDestroy();
  // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(opts.path ? { path: opts.path } : {}) });
  await listen(server, opts.port ?? 0);
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => (stopped ??= closeServer(server)),
  };
}

export async function startStandins(opts: StandinsOptions): Promise<Standins> {
  const dynamo = await startDynalite({ path: opts.dataDir ? join(opts.dataDir, 'dynamodb') : undefined, port: opts.dynamodbPort });
  const s3Dir = opts.dataDir ? join(opts.dataDir, 's3') : await mkdtemp(join(tmpdir(), 'proofline-s3-'));
  let s3: S3rverInstance | undefined;
  try {
    await mkdir(s3Dir, { recursive: true });
    s3 = new S3rver({ address: '127.0.0.1', port: opts.s3Port ?? 0, silent: true, directory: s3Dir });
    const s3rverToken = randomBytes(24).toString('hex');
    admitOnlyWithToken(s3, s3rverToken);
    const { port } = await s3.run();
    const s3rver = `http://127.0.0.1:${port}`;
    await provision({ dynamodb: dynamo.endpoint, s3rver, s3rverToken }, opts);
    const instance = s3;
    let stopped: Promise<void> | undefined;
    return {
      dynamodb: dynamo.endpoint,
      s3rver,
      s3rverToken,
      stop: () =>
        (stopped ??= (async () => {
          if (instance.httpServer) instance.httpServer.closeAllConnections();
          await Promise.allSettled([instance.close(), dynamo.stop()]);
          if (!opts.dataDir) await rm(s3Dir, { recursive: true, force: true });
        })()),
    };
  } catch (err) {
    await Promise.allSettled([s3?.close(), dynamo.stop()]);
    if (!opts.dataDir) await rm(s3Dir, { recursive: true, force: true });
    throw err;
  }
}

/** Creates the table and bucket unless they exist (both functions are idempotent); an older table gets the indexes it lacks. */
async function provision(endpoints: { dynamodb: string; s3rver: string; s3rverToken: string }, opts: StandinsOptions): Promise<void> {
  const ddb = new DynamoDBClient({ region: opts.region, endpoint: endpoints.dynamodb, credentials: S3RVER_CREDENTIALS });
  const s3 = s3rverClient({ endpoint: endpoints.s3rver, token: endpoints.s3rverToken, region: opts.region, credentials: S3RVER_CREDENTIALS });
  try {
    await Promise.all([provisionTable(ddb, opts.tableName).then(() => addMissingIndexes(ddb, opts.tableName)), provisionBucket(s3, opts.bucketName)]);
  } finally {
    ddb.destroy();
    s3.destroy();
  }
}

/** An S3 client of s3rver itself, sending the token its port asks for. */
export function s3rverClient(o: { endpoint: string; token: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } }): S3Client {
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: true,
    credentials: o.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.request as { headers: Record<string, string> }).headers[S3RVER_TOKEN_HEADER] = o.token;
      return next(args);
    },
    { step: 'build', name: 'proofline-s3rver-token' },
  );
  return client;
}

/** s3rver's request handler behind a check of the token (s3rver's listen() takes its handler from callback()). */
function admitOnlyWithToken(s3: S3rverInstance, token: string): void {
  const expected = Buffer.from(token);
  const handlerOf = s3.callback.bind(s3);
  s3.callback = () => {
    const handle = handlerOf();
    return (req: IncomingMessage, res: ServerResponse) => {
      const given = Buffer.from(String(req.headers[S3RVER_TOKEN_HEADER] ?? ''));
      if (given.length === expected.length && timingSafeEqual(given, expected)) return handle(req, res);
      req.resume();
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>This port serves the local runtime only; use the storage gateway and a signed URL.</Message></Error>');
    };
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err?: Error) => (err ? reject(err) : resolve()));
    // SDK clients keep sockets alive; without this close waits for them to idle out.
    server.closeAllConnections();
  });
}
