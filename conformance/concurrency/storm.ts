import { resolveCall, type EndpointId } from '../../contract/index.ts';
import { unaffordable, type CheckContext } from '../check.ts';
import { TransportError, type Reply } from '../http.ts';
import type { Exchanges, OpIds, OpRequest, TimedExchange } from './exchanges.ts';

// The one storm recorder: requests sent at once, each recorded as a TimedExchange (exchanges.ts)
// as it happens (invoke before the request leaves, complete when its answer is read), with the
// endpoint it calls and the ids it names, recorded at call time. A 429 is kept as it came (not
// retried): it was not accepted. A request that got no answer (timeout, reset) stays without
// `complete`: it may or may not have taken effect. The storm checks keep each history in the
// run's shared state under the check's id, so a failure can show it (timeline.ts), and the
// linearizability judge (linearize/storm-check.ts) checks every one of them after the storms.

/** One call: the endpoint, the ids its path names, and its body. */
export interface StormOp {
  kind: EndpointId;
  ids?: OpIds;
  /** A query string (without the `?`). */
  query?: string;
  body?: unknown;
  /** Which partner key: 1 (the main key, default) or 2 (ctx.key2). */
  partner?: 1 | 2;
}

export interface Recorded {
  history: Exchanges;
  replies: Reply[];
}

/** The request an op makes: the method and path of its endpoint, filled from its ids. */
function requestOf(ctx: CheckContext, op: StormOp): OpRequest {
  const ids = op.ids ?? {};
  const { method, path } = resolveCall(ctx.profile, op.kind, { ...ids });
  return { method, path: op.query ? `${path}?${op.query}` : path, ids, ...(op.body !== undefined ? { body: op.body } : {}), partner: op.partner ?? 1 };
}

/**
 * Records the calls of one history. `call` sends one op at once, with the key a `together` block
 * reserved room on; `storm` and `recordOne` below are the storm checks' two ways in.
 */
export class Recorder {
  readonly history: Exchanges;
  /** The key the requests carry: the one a `together` block reserved room on. */
  private key: string | undefined;

  constructor(
    private readonly ctx: CheckContext,
    history: Exchanges = [],
  ) {
    this.history = history;
  }

  /** Runs `n` requests sent at once with room for all of them reserved first (never into an empty bucket). */
  async together<T>(n: number, what: string, body: () => Promise<T>): Promise<T> {
    const room = await this.ctx.room({ 1: n }, what);
    this.key = room.key;
    try {
      return await body();
    } finally {
      this.key = undefined;
      room.done();
    }
  }

  /** One call by logical client `client`, recorded; a 429 is not retried, a transport failure leaves it unanswered. */
  async call(client: number, op: StormOp, o: { key?: string; id?: number } = {}): Promise<TimedExchange> {
    const rec = this.open(client, op, o.id);
    const key = op.partner === 2 ? this.ctx.key2 : (o.key ?? this.key);
    try {
      this.close(rec, await this.ctx.api(rec.request.method, rec.request.path, { endpoint: op.kind, ...(key ? { key } : {}), ...(op.body !== undefined ? { body: op.body } : {}), retry429: false }));
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
    }
    return rec;
  }

  open(client: number, op: StormOp, id?: number): TimedExchange {
    const last = this.history[this.history.length - 1];
    const rec: TimedExchange = { id: id ?? (last ? last.id + 1 : 0), client, kind: op.kind, invoke: performance.now(), request: requestOf(this.ctx, op) };
    this.history.push(rec);
    return rec;
  }

  close(rec: TimedExchange, r: Reply): void {
    rec.complete = performance.now();
    rec.response = { status: r.status, json: r.json };
  }
}

/** Where a check's histories are kept in the run's shared state: this, then its id. */
export const HISTORY_KEY = 'concurrency:history:';

/** One history per check id, in the order its storms ran (read by reports, the proof and the linearizability judge). */
export function historiesOf(ctx: Pick<CheckContext, 'shared'>, checkId: string): Exchanges[] {
  const k = `${HISTORY_KEY}${checkId}`;
  let h = ctx.shared.get(k) as Exchanges[] | undefined;
  if (!h) ctx.shared.set(k, (h = []));
  return h;
}

/**
 * Opens `n` connections to the target before a storm: cheap reads sent at once. Without them
 * the storm's first request leaves on the one idle keep-alive connection while the others wait
 * for new ones (~5 ms here), so the first would act alone, outside a few-ms race window.
 */
async function warm(ctx: CheckContext, n: number, key: string): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => ctx.call('positions.list', { params: { userId: ctx.user('warm') }, query: { limit: 1 }, key, retry429: false })));
}

/** Connections a storm of `n` still has to open: the pool's idle ones serve the rest. */
export const coldConnections = (ctx: CheckContext, n: number) => Math.max(0, n - ctx.http.idleConnections());

/**
 * Sends every op at once (one logical client each) and waits for all; a 429 is not retried.
 * The whole storm (and the reads that open its connections) waits for room in the rate limit
 * first, so it is never fired into an empty bucket.
 */
export async function storm(ctx: CheckContext, checkId: string, ops: StormOp[], o: { before?: Exchanges } = {}): Promise<Recorded> {
  const cold = coldConnections(ctx, ops.length);
  const n2 = ops.filter((o) => o.partner === 2).length;
  const room = await ctx.room({ 1: ops.length - n2 + cold, 2: n2 }, `a storm of ${ops.length} overlapping requests (${checkId})`);
  try {
    return await fire(ctx, checkId, ops, o.before ?? [], room.key, cold);
  } finally {
    room.done();
  }
}

async function fire(ctx: CheckContext, checkId: string, ops: StormOp[], before: Exchanges, key1: string, cold: number): Promise<Recorded> {
  if (cold) await warm(ctx, cold, key1);
  // The history goes on from what the check recorded before (its fixture and its funds read), so
  // the linearizability judge sees the storm with what pins it.
  const rec = new Recorder(ctx, before);
  // Every op is in the history, in order, before any leaves; each is stamped as it is sent.
  const sent = ops.map((o, i) => rec.open(i, o));
  const replies = await Promise.all(
    ops.map(async (o, i) => {
      const op = sent[i]!;
      const key = o.partner === 2 ? ctx.key2 : key1;
      op.invoke = performance.now();
      const r = await ctx.api(op.request.method, op.request.path, { endpoint: o.kind, ...(key ? { key } : {}), retry429: false, ...(o.body !== undefined ? { body: o.body } : {}) });
      rec.close(op, r);
      return r;
    }),
  );
  historiesOf(ctx, checkId).push(rec.history);
  return { history: rec.history, replies };
}

/** One request recorded into an existing history (a read or a set-up step between storms). It is
 *  no part of a storm, so a 429 is waited out and retried once; a second 429 skips the check. */
export async function recordOne(ctx: CheckContext, history: Exchanges, op: StormOp): Promise<Reply> {
  const recorder = new Recorder(ctx, history);
  const rec = recorder.open(-1, op);
  const r = await ctx.api(rec.request.method, rec.request.path, { endpoint: op.kind, ...(op.partner === 2 && ctx.key2 ? { key: ctx.key2 } : {}), ...(op.body !== undefined ? { body: op.body } : {}) });
  recorder.close(rec, r);
  if (rateLimited(r)) throw unaffordable(`${rec.request.method} ${rec.request.path.split('?')[0]} answered 429 twice: the target's rate limit leaves no room for this check now`);
  return r;
}

/**
 * A request a fixture already made (a lend the storm then cancels), recorded into a history with
 * the times around it: the judge of histories knows the position it names. The ids and body are
 * the request's as sent (its exchange), nothing guessed.
 */
export function recordMade(history: Exchanges, kind: EndpointId, reply: Reply, invoke: number, ids: OpIds = {}): TimedExchange {
  const last = history[history.length - 1];
  const x = reply.exchange;
  let body: unknown;
  try {
    body = x.requestBody ? JSON.parse(x.requestBody) : undefined;
  } catch {
    body = undefined;
  }
  const u = new URL(x.url);
  const rec: TimedExchange = {
    id: last ? last.id + 1 : 0,
    client: -1,
    kind,
    invoke,
    complete: performance.now(),
    request: { method: x.method, path: `${u.pathname}${u.search}`, ids, ...(body !== undefined ? { body } : {}), partner: x.credential === 'LENDCHECK_API_KEY_2' ? 2 : 1 },
    response: { status: reply.status, json: reply.json },
  };
  history.push(rec);
  return rec;
}

/** A 2xx: an answer, or a recorded exchange whose answer is one. */
export const accepted = (r: { status: number } | TimedExchange | undefined): boolean => {
  const a = r && 'request' in r ? r.response : r;
  return !!a && a.status >= 200 && a.status < 300;
};
export const rateLimited = (r: { status: number }) => r.status === 429;
/** The error object's code, when the body has one. */
export const errorCode = (r: { json: unknown } | undefined): string | undefined => {
  const c = (r?.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof c === 'string' ? c : undefined;
};

/** A field of a recorded exchange's JSON answer. */
export function field<T = unknown>(op: TimedExchange, name: string): T | undefined {
  const j = op.response?.json;
  return j && typeof j === 'object' ? ((j as Record<string, unknown>)[name] as T | undefined) : undefined;
}
