/**
 * A webhook receiver on 127.0.0.1 that answers from a script (status codes, or
 * `hang` to never answer) and records every delivery it gets.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers for the next deliveries, in order; afterwards `fallback`. */
  script(answers: Answer[], fallback?: Answer): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  let queue: Answer[] = [];
  let fallback: Answer = 200;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = queue.length > 0 ? queue.shift()! : fallback;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'number') res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
      else res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/proofline`,
    received,
    script(answers, next = 200) {
      queue = [...answers];
      fallback = next;
      received.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
