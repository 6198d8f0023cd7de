import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as results from '../../kernel/results.ts';
import { createRedactor } from '../../reports/redact.ts';

// lendcheck's own webhook receiver for detection: records every delivery (raw body and
// headers, for trying the signature schemes) and answers 200 at once, unless told to
// answer otherwise (another status, after a hold) to see what the sender retries.

export interface Delivery {
  headers: Record<string, string>;
  raw: Buffer;
  receivedAt: number;
  /** When the answer went out, and its status. */
  answeredAt?: number;
  answered?: number;
}

/** How the receiver answers a delivery: a status, optionally after holding it (ms). */
export type Answer = (d: Delivery) => { status: number; holdMs?: number };

export interface Receiver {
  url: string;
  got: Delivery[];
  answer: Answer;
  /** Waits until `pred` holds or `ms` pass; the bound is the caller's to state. */
  waitFor(pred: (got: Delivery[]) => boolean, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const got: Delivery[] = [];
  const self = { answer: (() => ({ status: 200 })) as Answer };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const d: Delivery = { headers, raw: Buffer.concat(chunks), receivedAt: Date.now() };
      got.push(d);
      const { status, holdMs = 0 } = self.answer(d);
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
        Object.assign(d, { answeredAt: Date.now(), answered: status });
      }, holdMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const rest: Omit<Receiver, 'answer'> = {
    url: `http://${host}:${port}/lendcheck-detect`,
    got,
    async waitFor(pred, ms) {
      const until = Date.now() + ms;
      while (!pred(got)) {
        if (Date.now() > until) return false;
        await new Promise((r) => setTimeout(r, 25));
      }
      return true;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return Object.assign(self, rest);
}

/** A delivery's JSON body, or undefined when it is not JSON. */
export function payloadOf(d: Delivery): unknown {
  try {
    return JSON.parse(d.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A delivery as a redacted exchange record, the evidence for what was read from it. */
export function deliveryExchange(d: Delivery, url: string, secrets: string[]): results.Exchange {
  return {
    method: 'POST',
    url,
    status: d.answered ?? 200,
    requestHeaders: createRedactor(secrets).value(d.headers),
    requestBody: createRedactor(secrets).text(d.raw.toString('utf8').slice(0, 4096)),
    responseHeaders: {},
    durationMs: 0,
  };
}
