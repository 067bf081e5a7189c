/**
 * Reaches the local runtime's data from another process (the keys CLI run with
 * the same DATA_DIR as `npm start`). While the runtime runs, its dynalite owns
 * the LevelDB directory, so this talks to that dynalite over HTTP (found through
 * runtime.json); when no runtime runs, it opens the directory with a dynalite of
 * its own and stops it on close. Only the table is reachable then, not files.
 *
 * It sets the stand-ins' credentials in process.env: the AWS SDK reads them
 * from there, and any credentials will do for dynalite (real ones are never
 * needed and must not leak to a stand-in).
 */
import '../lambdas/platform/polyfills';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { provisionTable } from '../lambdas/adapters/aws';
import { loadConfig, type RuntimeConfig } from '../lambdas/platform/config';
import { isRunning, readRuntimeInfo } from './runtime-info';
import { S3RVER_CREDENTIALS, startDynalite, useStandInCredentials } from './standins';

export interface LocalDataConnection {
  config: RuntimeConfig;
  /** True when it reached a running runtime, false when it opened the data itself. */
  viaRunningRuntime: boolean;
  close(): Promise<void>;
}

export async function connectToLocalData(dataDir: string): Promise<LocalDataConnection> {
  const dir = resolve(dataDir);
  useStandInCredentials();
  const info = readRuntimeInfo(dir);
  const base = { ...process.env, NETWORK_MODE: 'local' };

  if (info && (await isRunning(info))) {
    const config = loadConfig({
      ...base,
      AWS_REGION: info.region,
      DYNAMODB_ENDPOINT: info.endpoints.dynamodb,
      S3_ENDPOINT: info.endpoints.s3,
      TABLE_NAME: info.tableName,
      BUCKET_NAME: info.bucketName,
    });
    return { config, viaRunningRuntime: true, close: async () => {} };
  }

  const dynamo = await startDynalite({ path: join(dir, 'dynamodb') });
  try {
    const config = loadConfig({
      ...base,
      ...(info ? { AWS_REGION: info.region, TABLE_NAME: info.tableName, BUCKET_NAME: info.bucketName } : {}),
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: '',
    });
    // The data directory may be new: the table must exist before keys go in.
    const ddb = new DynamoDBClient({ region: config.region, endpoint: dynamo.endpoint, credentials: S3RVER_CREDENTIALS });
    try {
      await provisionTable(ddb, config.tableName);
    } finally {
      ddb.destroy();
    }
    return { config, viaRunningRuntime: false, close: () => dynamo.stop() };
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
}
