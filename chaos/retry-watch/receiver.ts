import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The retry watch's receiver: records each POST (raw bytes, arrival, when its answer went out)
// and answers with the status `decide` gives it, at once, so that a retry's delay is measured
// from an answer whose moment is known.

export interface Arrival {
  /** Date.now() when the body had arrived. */
  at: number;
  /** Date.now() when the answer was written (the arrival, until then). */
  end: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  status: number;
  /** Date.now() when the answer was written; absent while it is held back, or when the sender hung up first. */
  answeredAt?: number;
  /** Date.now() when the sender closed the connection before the answer. */
  gaveUpAt?: number;
}

export interface WatchReceiver {
  url: string;
  got: Arrival[];
  close(): Promise<void>;
}

/** The answer to one delivery: a status, at once or after a delay. */
export type Answer = number | { status: number; afterMs: number };

export async function startWatchReceiver(decide: (raw: Buffer, headers: IncomingHttpHeaders) => Answer, host = process.env.LENDCHECK_RECEIVER_HOST || '127.0.0.1'): Promise<WatchReceiver> {
  const got: Arrival[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks);
      const d = decide(raw, req.headers);
      const { status, afterMs } = typeof d === 'number' ? { status: d, afterMs: 0 } : d;
      const a: Arrival = { at, end: at, headers: req.headers, raw, status };
      got.push(a);
      res.on('close', () => {
        if (!res.writableEnded) a.gaveUpAt = Date.now();
      });
      const answer = () => {
        if (res.destroyed || res.writableEnded) return;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'failing on purpose (lendcheck retry watch)');
        a.end = a.answeredAt = Date.now();
      };
      if (afterMs <= 0) return answer();
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, afterMs);
      timers.add(t);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/lendcheck-retry-watch`,
    got,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
