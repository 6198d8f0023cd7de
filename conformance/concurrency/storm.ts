import { unaffordable, type CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';
import type { Exchanges, TimedExchange } from './exchanges.ts';

// A storm: requests sent at once, each recorded as a TimedExchange (exchanges.ts) with its invoke
// and complete times, kept in the run's shared state under the check's id so a failure can
// show the history (timeline.ts) and the linearizability checker can read it.

export interface StormOp {
  kind: string;
  method: string;
  path: string;
  body?: unknown;
  /** Which partner key: 1 (the main key, default) or 2 (ctx.key2). */
  partner?: 1 | 2;
}

export interface Recorded {
  history: Exchanges;
  replies: Reply[];
}

/** One history per check id, in the order its storms ran (read by reports and the proof). */
export function historiesOf(ctx: CheckContext, checkId: string): Exchanges[] {
  const k = `concurrency:history:${checkId}`;
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
  const path = `/users/${encodeURIComponent(ctx.user('warm'))}/positions?limit=1`;
  await Promise.all(Array.from({ length: n }, () => ctx.api('GET', path, { key, retry429: false })));
}

/** Connections a storm of `n` still has to open: the pool's idle ones serve the rest. */
export const coldConnections = (ctx: CheckContext, n: number) => Math.max(0, n - ctx.http.idleConnections());

/**
 * Sends every op at once (one logical client each) and waits for all; a 429 is not retried.
 * The whole storm (and the reads that open its connections) waits for room in the rate limit
 * first, so it is never fired into an empty bucket.
 */
export async function storm(ctx: CheckContext, checkId: string, ops: StormOp[], firstId = 0): Promise<Recorded> {
  const cold = coldConnections(ctx, ops.length);
  const n2 = ops.filter((o) => o.partner === 2).length;
  const room = await ctx.room({ 1: ops.length - n2 + cold, 2: n2 }, `a storm of ${ops.length} overlapping requests (${checkId})`);
  try {
    return await fire(ctx, checkId, ops, firstId, room.key, cold);
  } finally {
    room.done();
  }
}

async function fire(ctx: CheckContext, checkId: string, ops: StormOp[], firstId: number, key1: string, cold: number): Promise<Recorded> {
  if (cold) await warm(ctx, cold, key1);
  const history: Exchanges = ops.map((o, i) => ({
    id: firstId + i,
    client: i,
    kind: o.kind,
    invoke: 0,
    request: { method: o.method, path: o.path, ...(o.body !== undefined ? { body: o.body } : {}), partner: o.partner ?? 1 },
  }));
  const replies = await Promise.all(
    ops.map(async (o, i) => {
      const op = history[i]!;
      const key = o.partner === 2 ? ctx.key2 : key1;
      op.invoke = performance.now();
      const r = await ctx.api(o.method, o.path, { ...(key ? { key } : {}), retry429: false, ...(o.body !== undefined ? { body: o.body } : {}) });
      op.complete = performance.now();
      op.response = { status: r.status, json: r.json };
      return r;
    }),
  );
  historiesOf(ctx, checkId).push(history);
  return { history, replies };
}

/** One request recorded into an existing history (a read or a set-up step between storms). It is
 *  no part of a storm, so a 429 is waited out and retried once; a second 429 skips the check. */
export async function recordOne(ctx: CheckContext, history: Exchanges, op: StormOp): Promise<Reply> {
  const rec: TimedExchange = {
    id: history.length ? history[history.length - 1]!.id + 1 : 0,
    client: -1,
    kind: op.kind,
    invoke: performance.now(),
    request: { method: op.method, path: op.path, ...(op.body !== undefined ? { body: op.body } : {}), partner: op.partner ?? 1 },
  };
  history.push(rec);
  const r = await ctx.api(op.method, op.path, { ...(op.partner === 2 && ctx.key2 ? { key: ctx.key2 } : {}), ...(op.body !== undefined ? { body: op.body } : {}) });
  rec.complete = performance.now();
  rec.response = { status: r.status, json: r.json };
  if (rateLimited(r)) throw unaffordable(`${op.method} ${op.path.split('?')[0]} answered 429 twice: the target's rate limit leaves no room for this check now`);
  return r;
}

export const accepted = (r: { status: number }) => r.status >= 200 && r.status < 300;
export const rateLimited = (r: { status: number }) => r.status === 429;
export const errorCode = (r: { json: unknown }) => (r.json as { error?: { code?: unknown } } | undefined)?.error?.code;
