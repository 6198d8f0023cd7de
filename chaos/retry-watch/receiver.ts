import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The retry watch's receiver: records each POST (raw bytes, arrival, when its answer went out)
// and answers with the status `decide` gives it, at once, so that a retry's delay is measured
// from an answer whose moment is known.

export interface Arrival {
  /** Date.now() when the body had arrived. */
  at: number;
  /** Date.now() when the answer was written. */
  end: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  status: number;
}

export interface WatchReceiver {
  url: string;
  got: Arrival[];
  close(): Promise<void>;
}

export async function startWatchReceiver(decide: (raw: Buffer, headers: IncomingHttpHeaders) => number, host = process.env.LENDCHECK_RECEIVER_HOST || '127.0.0.1'): Promise<WatchReceiver> {
  const got: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks);
      const status = decide(raw, req.headers);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'failing on purpose (lendcheck retry watch)');
      got.push({ at, end: Date.now(), headers: req.headers, raw, status });
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
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
