import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../kernel/results.ts';

// lendcheck's one recording webhook receiver, for every part that watches a sender: the retry
// watch (chaos/), the webhook checks without controls (conformance/) and detection (detect/).
// It records each POST as it came (raw bytes, for the signature) with the moments that part's
// judgement is made of: arrival, when the answer went out, and when the sender hung up before
// it (a sender giving up early is seen at once, not only by the retry that follows). It
// answers with the status `decide` gives, at once or after a hold. Written on node:http, not
// msw or a framework: it must listen on a real port a remote target reaches, and record the
// bytes and the moments no framework exposes.

export interface Arrival {
  /** Date.now() when the body had arrived. */
  at: number;
  method: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** The status it is answered with (decided at arrival; 0 while `decide` runs). */
  status: number;
  /** Date.now() when the answer was written; absent while held back, or when the sender hung up first. */
  answeredAt?: number;
  /** Date.now() when the sender closed the connection before the answer. */
  gaveUpAt?: number;
}

/** How one arrival is answered: a status, at once or after holding it `afterMs`. */
export type Answer = number | { status: number; afterMs?: number };
/** Called at each arrival, already in `got` (so a count of `got` includes it). */
export type Decide = (a: Arrival) => Answer;

export interface RecordingReceiver {
  /** The URL the target is given (the advertised host, the listening port, the path and this receiver's own segment). */
  url: string;
  got: Arrival[];
  /** Requests to any other path (answered 404, not in `got`): deliveries of another subscription that once named this port. */
  strays: number;
  /** How arrivals are answered from now on; a caller may replace it while the receiver runs. */
  decide: Decide;
  /** Arrivals still waiting for their answer. */
  pending(): number;
  /** Waits until `pred` holds or `ms` pass, and says which; the bound is the caller's to state. */
  waitFor(pred: (got: Arrival[]) => boolean, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RecordingOptions {
  /** The URL's path, naming the part in the target's logs (e.g. /lendcheck-hook); a random segment of this receiver's own follows it. */
  path: string;
  /** The address it listens on: receiverHost() unless given. */
  host?: string;
  /** The host the URL names, where it differs from the listening one (default: `host`). */
  advertise?: string;
  /** Default: 200 at once. */
  decide?: Decide;
}

/** Where lendcheck's receivers listen, as the target must reach them: the loopback unless LENDCHECK_RECEIVER_HOST (gate --receiver-host) says otherwise. */
export const receiverHost = (): string => process.env.LENDCHECK_RECEIVER_HOST || '127.0.0.1';

export async function startRecordingReceiver(o: RecordingOptions): Promise<RecordingReceiver> {
  const host = o.host ?? receiverHost();
  const got: Arrival[] = [];
  let waiting = 0;
  // Set when this receiver closes: connections it cuts then were not the sender hanging up.
  let closing = false;
  const timers = new Set<NodeJS.Timeout>();
  const rx = { decide: o.decide ?? (() => 200), strays: 0 } as RecordingReceiver;
  // A path of its own: a port is reused once a receiver closes, and a target may still retry the
  // deliveries of an earlier subscription (another run's, on this machine) to the same port. Those
  // arrive at another path and are never judged as this receiver's (a neutrality fault run saw a
  // foreign subscription's delivery fail this one's signature check).
  const path = `${o.path}/${randomBytes(6).toString('hex')}`;
  const server: Server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== path) {
      rx.strays++;
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not this receiver (lendcheck)');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a: Arrival = { at: Date.now(), method: req.method ?? '', headers: req.headers, raw: Buffer.concat(chunks), status: 0 };
      got.push(a);
      const d = rx.decide(a);
      const { status, afterMs = 0 } = typeof d === 'number' ? { status: d } : d;
      a.status = status;
      waiting++;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        waiting--;
      };
      // The response closing before it was ended is the sender hanging up on us, unless we closed
      // it: a delivery still held when the receiver closes (a correct target's late order fill, at
      // the end of a check) was recorded as the sender hanging up, and hooks.answer-window failed it.
      res.on('close', () => {
        if (!res.writableEnded && !closing) a.gaveUpAt = Date.now();
        finish();
      });
      const answer = () => {
        if (res.destroyed || res.writableEnded) return finish();
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'failing on purpose (lendcheck)');
        a.answeredAt = Date.now();
        finish();
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
  const shown = o.advertise ?? host;
  return Object.assign(rx, {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}${path}`,
    got,
    pending: () => waiting,
    async waitFor(pred: (got: Arrival[]) => boolean, ms: number) {
      const until = Date.now() + ms;
      while (!pred(got)) {
        if (Date.now() > until) return false;
        await new Promise((r) => setTimeout(r, 25));
      }
      return true;
    },
    close: () =>
      new Promise<void>((r) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** An arrival's headers as one string each (a repeated header joined with ", "). */
export function flatHeaders(a: Pick<Arrival, 'headers'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** An arrival's JSON body, or undefined when it is not JSON. */
export function payloadOf(a: Pick<Arrival, 'raw'>): unknown {
  try {
    return JSON.parse(a.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * An arrival as an exchange record (the sender's request, the answer it got), the evidence a
 * failure or a detected value shows. `status` is 0 for an answer never written. Redacting is
 * the caller's: `redact` is applied to the headers and the body.
 */
export function arrivalExchange(a: Arrival, url: string, redact: { value(h: Record<string, string>): Record<string, string>; text(t: string): string } = { value: (h) => h, text: (t) => t }): Exchange {
  return {
    method: a.method || 'POST',
    url,
    status: a.answeredAt ? a.status : 0,
    requestHeaders: redact.value(flatHeaders(a)),
    requestBody: redact.text(a.raw.toString('utf8').slice(0, 4096)),
    responseHeaders: {},
    durationMs: (a.answeredAt ?? a.gaveUpAt ?? a.at) - a.at,
  };
}
