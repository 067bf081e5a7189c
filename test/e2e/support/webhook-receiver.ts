/**
 * A webhook receiver on loopback that verifies Standard Webhooks signatures with
 * the `standardwebhooks` package — what a customer's endpoint would do.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** null when the signature verified; else why not. */
  signatureError: string | null;
  answeredWith: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `answer(n)` gives the status for the n-th request (1-based); 'hang' never answers. */
export async function webhookReceiver(secret: string, answer: (n: number) => number | 'hang' = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const verifier = new Webhook(secret);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let signatureError: string | null = null;
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch (e) {
        signatureError = (e as Error).message;
      }
      const status = answer(received.length + 1);
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      received.push({ headers: req.headers, body, json, signatureError, answeredWith: status === 'hang' ? 0 : status });
      if (status === 'hang') return; // the caller's timeout must end the attempt
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/proofline`,
    received,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`webhook receiver got ${received.length} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
