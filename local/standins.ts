/**
 * The stand-ins for DynamoDB and S3: dynalite and s3rver on loopback ports,
 * persisted under the data directory (`<dataDir>/dynamodb`, `<dataDir>/s3`) so
 * a restart finds everything again, or in memory / a throw-away directory when
 * there is no data directory (tests). The table and bucket are provisioned with
 * the AWS adapters' own provisioning functions, from the same TABLE_SCHEMA CDK
 * deploys, so local and cloud storage have one shape.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { provisionBucket, provisionTable } from '../lambdas/adapters/aws';

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
interface S3rverInstance { run(): Promise<AddressInfo>; close(): Promise<void>; httpServer?: Server }

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
  stop(): Promise<void>;
}

export async function startDynalite(opts: { path?: string; port?: number } = {}): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (opts.path) await mkdir(opts.path, { recursive: true });
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
    const { port } = await s3.run();
    const s3rver = `http://127.0.0.1:${port}`;
    await provision({ dynamodb: dynamo.endpoint, s3rver }, opts);
    const instance = s3;
    let stopped: Promise<void> | undefined;
    return {
      dynamodb: dynamo.endpoint,
      s3rver,
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

/** Creates the table and bucket unless they exist (both functions are idempotent). */
async function provision(endpoints: { dynamodb: string; s3rver: string }, opts: StandinsOptions): Promise<void> {
  const ddb = new DynamoDBClient({ region: opts.region, endpoint: endpoints.dynamodb, credentials: S3RVER_CREDENTIALS });
  const s3 = new S3Client({
    region: opts.region,
    endpoint: endpoints.s3rver,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await Promise.all([provisionTable(ddb, opts.tableName), provisionBucket(s3, opts.bucketName)]);
  } finally {
    ddb.destroy();
    s3.destroy();
  }
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
