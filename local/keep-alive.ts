/**
 * How the local front doors (the API and the storage gateway) hold idle keep-alive connections.
 *
 * Node closes an idle connection after 5 s. A client whose pool has not yet noticed (its event
 * loop busy building the next body) writes its next request into the closed socket and gets
 * EPIPE or "other side closed": test/e2e/errors.test.ts did, every time, on a loaded machine,
 * when its 7 MB body took longer than that to build. So idle connections are kept a minute, far
 * longer than the gap between one client's requests, and the limit is advertised in the
 * `Keep-Alive` header for pools that honour it.
 */
import type http from 'node:http';

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_MS = 65_000;

export function holdIdleConnections(server: http.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node wants the headers timeout above the keep-alive one, or a slow first byte on a reused
  // connection is cut by the wrong timer.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
