/**
 * dynalite (an in-memory DynamoDB) on an ephemeral loopback port, for tests.
 * Each call is its own server and store, so test files running in parallel
 * never see each other's tables.
 */
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface DynaliteOptions {
  /** LevelDB directory; in memory when absent. */
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}

// dynalite is CommonJS without type declarations.
const dynalite = createRequire(import.meta.url)('dynalite') as (options?: DynaliteOptions) => Server;

export interface StandIn {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynalite(options: Pick<DynaliteOptions, 'path'> = {}): Promise<StandIn> {
  // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...options });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop() {
      stopped ??= new Promise<void>((resolve, reject) => {
        server.close((error?: Error) => (error ? reject(error) : resolve()));
        // SDK clients keep sockets alive; without this close waits for them to idle out.
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
