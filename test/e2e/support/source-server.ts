/**
 * Loopback HTTP servers that play the customer's file host (URL sources) —
 * only the local runtime may fetch from loopback, so tests using these run there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onePagePdfBytes } from './files';

export interface TestServer {
  url: string;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? '/', headers: req.headers });
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/file.pdf`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves bytes with a given status and headers. */
export function fileServer(bytes: Uint8Array, status = 200, headers: Record<string, string> = { 'content-type': 'application/pdf' }): Promise<TestServer> {
  return serve((_req, res) => {
    res.writeHead(status, headers);
    res.end(Buffer.from(bytes));
  });
}

/** Serves a one-page PDF after a delay: a job whose ingest outlasts the sync wait. */
export async function slowSourceServer(delayMs: number): Promise<TestServer> {
  const bytes = await onePagePdfBytes();
  return serve(async (_req, res) => {
    await new Promise((r) => setTimeout(r, delayMs));
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(Buffer.from(bytes));
  });
}
