import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A receiver of lendcheck's own on the loopback, for checking a service's deliveries with no
// test controls: it records every POST as raw bytes with its arrival time, answers with a set
// status after a set delay, and notes when the sender hung up before that answer (a sender
// that gives up early is seen at once, not only by the retry that follows a minute later).

export interface Seen {
  /** Date.now() at arrival. */
  at: number;
  method: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** Date.now() when the answer was written. */
  answeredAt?: number;
  /** Date.now() when the sender closed the connection before the answer came. */
  gaveUpAt?: number;
}

export interface HookReceiver {
  /** Who it stands for in a failure message, e.g. "partner A's subscription to position.matched only". */
  label: string;
  url: string;
  answerAfterMs: number;
  got: Seen[];
  /** Deliveries still waiting for their answer. */
  pending(): number;
  close(): Promise<void>;
}

/** Where lendcheck's receivers listen, as the target must reach them: the loopback unless LENDCHECK_RECEIVER_HOST (gate --receiver-host) says otherwise. */
export const receiverHost = (): string => process.env.LENDCHECK_RECEIVER_HOST || '127.0.0.1';

export async function startHookReceiver(label: string, o: { answerAfterMs?: number; status?: number; host?: string } = {}): Promise<HookReceiver> {
  const answerAfterMs = o.answerAfterMs ?? 0;
  const host = o.host ?? receiverHost();
  const status = o.status ?? 200;
  const got: Seen[] = [];
  let waiting = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = { at: Date.now(), method: req.method ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
      got.push(seen);
      waiting++;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        waiting--;
      };
      // The response closing before it was ended is the sender hanging up on us.
      res.on('close', () => {
        if (!res.writableEnded) seen.gaveUpAt = Date.now();
        finish();
      });
      const answer = () => {
        if (res.destroyed || res.writableEnded) return finish();
        seen.answeredAt = Date.now();
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'failing on purpose');
        finish();
      };
      if (answerAfterMs <= 0) return answer();
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, answerAfterMs);
      timers.add(t);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  return {
    label,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/lendcheck-hook`,
    answerAfterMs,
    got,
    pending: () => waiting,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
