import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { defaultProfile, UNKNOWN_SCHEME_REASON, WEBHOOK_RESPONSE_DEADLINE_MS, type Profile } from '../contract/index.ts';
import { verifyWebhook } from '../signing/signature.ts';
import { EMPTY_PLAN, type Plan } from './plan.ts';
import { AttemptStore } from './store.ts';
import { canonicalJson, sha256 } from './canonical.ts';
import { OK_BODY, serveToxic, type FaultOutcome } from './faults/index.ts';
import { senderWindowSeconds } from './sender-window.ts';

export interface ReceiverOptions {
  secret: string;
  /** Port to listen on; 0 picks a free one. */
  port?: number;
  /** Always loopback unless the caller says otherwise. */
  host?: string;
  /** SQLite file; ':memory:' keeps nothing across restarts. */
  db?: string;
  plan?: Plan;
  /** The sender's time scale, recorded so the validator divides the schedule by it. */
  timeScale?: number;
  profile?: Profile;
  /** Unix seconds for the timestamp tolerance (tests, test clocks). */
  nowSeconds?: () => number;
  maxBodyBytes?: number;
  /** Deadline handed to faults (spec: 5 s); tests shorten it. */
  deadlineMs?: number;
}

export interface Receiver {
  url: string;
  port: number;
  store: AttemptStore;
  /** Deliveries recorded since start. */
  count(): number;
  /** Worst event-loop delay of this process so far (ms): what closing the session records. */
  loopDelayMs(): number;
  close(): Promise<void>;
}

const realNowMs = () => performance.timeOrigin + performance.now();

function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve(null);
        req.removeAllListeners('data');
        req.resume();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseEnvelope(body: Buffer): { id: string | null; type: string | null; contentKey: string | null; subject: string | null } {
  try {
    const v = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const id = typeof v?.id === 'string' ? v.id : null;
    const type = typeof v?.type === 'string' ? v.type : null;
    const data = (v?.data ?? null) as Record<string, unknown> | null;
    const subject = data && typeof data === 'object' ? (data.positionId ?? data.withdrawalId ?? null) : null;
    return { id, type, contentKey: type ? sha256(canonicalJson({ type, data })) : null, subject: typeof subject === 'string' ? subject : null };
  } catch {
    return { id: null, type: null, contentKey: null, subject: null };
  }
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const profile = opts.profile ?? defaultProfile;
  const found = profile.signature.scheme;
  // Its callers skip (or poll) first: a receiver that verifies under a guessed scheme would judge nothing true.
  if (found === null) throw new Error(UNKNOWN_SCHEME_REASON);
  const scheme = found;
  const plan = opts.plan ?? EMPTY_PLAN;
  const store = new AttemptStore(opts.db ?? ':memory:');
  store.openSession({ timeScale: opts.timeScale ?? 1, scheme, plan: plan.name, startedMs: realNowMs() });
  const seen = store.attemptCounts();
  // Timer lateness of this process: arrival times cannot be more exact than this, and when the
  // sender shares the process (the embedded sandbox) its retry timers are late by as much.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const maxBody = opts.maxBodyBytes ?? 1_048_576;
  let recorded = 0;
  // Long-poll readers of GET /observed, woken when a signed event about their subject commits.
  const waiters = new Map<string, Array<() => void>>();
  const waitKey = (type: string, subject: string) => `${type}\n${subject}`;

  /** GET /observed?subject=ID&type=T[&waitMs=N]: the first signed arrival of that event, read
   *  from the store; waits up to waitMs (≤ 30 s) for it, so a load run learns when each order
   *  matched without polling the target or the receiver. 404 when nothing arrived in time. */
  async function observed(url: URL, res: ServerResponse): Promise<void> {
    const subject = url.searchParams.get('subject');
    const type = url.searchParams.get('type');
    const waitMs = Math.min(30_000, Math.max(0, Number(url.searchParams.get('waitMs')) || 0));
    if (!subject || !type) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"invalid_request","message":"subject and type: both required"}}');
      return;
    }
    let hit = store.firstArrival(subject, type);
    if (!hit && waitMs > 0) {
      const key = waitKey(type, subject);
      await new Promise<void>((wake) => {
        const timer = setTimeout(done, waitMs);
        function done(): void {
          clearTimeout(timer);
          const list = waiters.get(key)?.filter((w) => w !== done);
          if (list?.length) waiters.set(key, list);
          else waiters.delete(key);
          wake();
        }
        waiters.set(key, [...(waiters.get(key) ?? []), done]);
        res.once('close', done);
      });
      hit = store.firstArrival(subject, type);
    }
    if (res.destroyed) return;
    if (!hit) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ subject, type, observed: false }));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ subject, type, observed: true, ...hit }));
  }

  // Orders a load run has placed and waits to see matched: k6 posts each acknowledgement here
  // (POST /expect) and reads every time-to-match back at the end (GET /expectations), so no
  // virtual user is held while its order waits for a counterparty.
  const expected: Array<{ subject: string; type: string; ackMs: number; tag: string }> = [];

  async function expect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, 64 * 1024);
    let e: { subject?: unknown; type?: unknown; ackMs?: unknown; tag?: unknown } = {};
    try {
      e = JSON.parse(body?.toString('utf8') ?? '') as typeof e;
    } catch {
      // answered below
    }
    if (typeof e.subject !== 'string' || typeof e.type !== 'string' || typeof e.ackMs !== 'number') {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"invalid_request","message":"body: expected {subject, type, ackMs, tag?}"}}');
      return;
    }
    expected.push({ subject: e.subject, type: e.type, ackMs: e.ackMs, tag: typeof e.tag === 'string' ? e.tag : '' });
    res.writeHead(204).end();
  }

  /** GET /expectations?waitMs=N: each expected event's time from acknowledgement to its first
   *  signed arrival in the store (ms, at least 0), or null; waits up to N ms for the missing. */
  async function expectations(url: URL, res: ServerResponse): Promise<void> {
    const deadline = Date.now() + Math.min(60_000, Math.max(0, Number(url.searchParams.get('waitMs')) || 0));
    const found = new Map<number, number>();
    for (;;) {
      for (let i = 0; i < expected.length; i++) {
        if (found.has(i)) continue;
        const hit = store.firstArrival(expected[i].subject, expected[i].type);
        if (hit) found.set(i, hit.arrivalMs);
      }
      if (found.size === expected.length || Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // An order that crossed on arrival can have its event recorded before the client read
    // its acknowledgement: it matched no later than the ack, so that counts as zero.
    const out = expected.map((e, i) => ({ tag: e.tag, ms: found.has(i) ? Math.max(0, found.get(i)! - e.ackMs) : null }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivalMs = realNowMs();
    if (req.method === 'GET' && req.url?.startsWith('/observed')) return observed(new URL(req.url, 'http://receiver'), res);
    if (req.method === 'POST' && req.url === '/expect') return expect(req, res);
    if (req.method === 'GET' && req.url?.startsWith('/expectations')) return expectations(new URL(req.url, 'http://receiver'), res);
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'GET' ? 200 : 405, { 'content-type': 'application/json' }).end(JSON.stringify({ receiver: 'lendcheck chaos', recorded }));
      return;
    }
    const body = await readBody(req, maxBody);
    if (body === null) {
      res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"code":"invalid_request","message":"body too large"}}');
      return;
    }
    const env = parseEnvelope(body);
    const sig = verifyWebhook(body, req.headers, opts.secret, {
      scheme,
      // A sender is judged on the body's signature; a timestamp binds only past its retry schedule (sender-window.ts).
      toleranceSeconds: senderWindowSeconds(profile),
      now: opts.nowSeconds?.(),
    });
    const attempt = env.id ? (seen.get(env.id) ?? 0) + 1 : 1;
    if (env.id) seen.set(env.id, attempt);
    const chosen = sig.ok ? plan.choose(env.type, attempt) : null;

    // Answers known in advance (200, 401, an immediate fault) are recorded complete in one row;
    // the end time is taken just before the commit that precedes the answer, a fraction of a ms
    // early. Held faults get their outcome recorded when they finish.
    const known: FaultOutcome | null = !sig.ok
      ? { status: 401, response: `401 signature ${sig.reason}` }
      : chosen
        ? (chosen.def.planned?.(chosen.config) ?? null)
        : { status: 200, response: '200' };

    let seq: number;
    try {
      seq = await store.record({
        eventId: env.id,
        eventType: env.type,
        attempt,
        arrivalMs,
        bodySha256: sha256(body),
        contentKey: env.contentKey,
        subject: env.subject,
        bodyBytes: body.length,
        sigOk: sig.ok,
        sigReason: sig.ok ? null : sig.reason,
        fault: chosen ? `${chosen.def.name} (${chosen.rule})` : null,
        ...(known ? { endedMs: realNowMs(), response: known.response, status: known.status } : {}),
      });
    } catch (e) {
      // Not recorded means not acknowledged: the sender will retry and we will see it again.
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"internal_error","message":"could not record the delivery"}}');
      console.error(`chaos receiver: cannot record: ${(e as Error).message}`);
      return;
    }
    recorded++;
    if (sig.ok && env.type && env.subject) for (const wake of waiters.get(waitKey(env.type, env.subject)) ?? []) wake();

    if (!sig.ok) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'authentication_failed', message: `x-service-signature ${sig.reason}` } }));
    } else if (!chosen) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(OK_BODY);
    } else {
      const answering = (o: FaultOutcome) => store.finish(seq, realNowMs(), o.response, o.status);
      const toxic = chosen.def.install(chosen.config, { deadlineMs: opts.deadlineMs ?? WEBHOOK_RESPONSE_DEADLINE_MS });
      const outcome = await serveToxic(toxic, req, res, { body, answering });
      // The exchange ends, as the sender sees it, when the answer is written or the connection
      // dropped: faults return at that moment (or earlier, when the sender hung up first). A
      // status written ahead by `answering` is kept if the process dies before this line.
      if (!known) await store.finish(seq, realNowMs(), outcome.response, outcome.status);
    }
  }

  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    const p = handle(req, res)
      .catch((e) => {
        if (!res.headersSent) res.writeHead(500).end();
        console.error(`chaos receiver: ${(e as Error).message}`);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  let closed = false;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    port,
    store,
    count: () => recorded,
    loopDelayMs: () => loop.max / 1e6,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      // Exchanges cut short above still record how they ended before the store closes.
      await Promise.allSettled([...inFlight]);
      loop.disable();
      store.closeSession(realNowMs(), loop.max / 1e6);
      store.close();
    },
  };
}
