/**
 * s3rver (an S3 stand-in) on an ephemeral loopback port, storing objects in a
 * fresh temporary directory that stop() removes. Clients must use path-style
 * URLs, credentials S3RVER/S3RVER (see useStandInCredentials) and
 * checksums WHEN_REQUIRED (the blob store's S3 client does).
 */
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { StandIn } from './dynalite';

interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets?: { name: string }[];
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}

// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverInstance;

export { S3RVER_CREDENTIALS, useStandInCredentials } from '../../local/standins';

export async function startS3rver(options: { buckets?: string[] } = {}): Promise<StandIn & { directory: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'proofline-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  const { port } = await server.run();
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    stop() {
      stopped ??= (async () => {
        const closing = server.close();
        server.httpServer?.closeAllConnections();
        await closing;
        await rm(directory, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
