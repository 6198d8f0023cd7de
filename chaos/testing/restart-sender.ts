import { EVENT_TYPES } from '../../contract/index.ts';
import { routePath } from '../../contract/fill-path.ts';
import type { caller } from '../../sandbox/testing/helpers.ts';
import type { SenderEvent } from './restart-reconcile.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// The sender side of the restart drill: the stream of triggered events, and the drain that
// reads each event's attempt log back from the sandbox once the stream has stopped.

type Call = ReturnType<typeof caller>;


/** Sends triggers at a fixed rate until stopped; records when each event was emitted. */
export function startStream(call: Call, key: string, ratePerSec: number) {
  const emitted: Array<{ eventId: string; atMs: number }> = [];
  const pending = new Set<Promise<void>>();
  let errors = 0;
  let n = 0;
  const fire = () => {
    const type = EVENT_TYPES[n++ % EVENT_TYPES.length];
    const p = call('POST', routePath('sandbox.trigger'), { key, body: { type, userId: `drill_${n}` } })
      .then((r) => (r.status === 200 ? void emitted.push({ eventId: r.body.eventId, atMs: Date.now() }) : void errors++))
      .catch(() => void errors++)
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const timer = setInterval(fire, 1000 / ratePerSec);
  return {
    emitted,
    errors: () => errors,
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}

/** Runs `fn` over items with at most `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (i < items.length) await fn(items[i++]);
  }));
}

/** Polls the sender until every event in `ids` has a final state (or `timeoutMs`); the attempts to `webhookId` of each. */
export async function drainSender(call: Call, key: string, webhookId: string, ids: string[], timeoutMs: number): Promise<{ final: Map<string, SenderEvent>; drainMs: number }> {
  const drainStart = Date.now();
  const final = new Map<string, SenderEvent>();
  const readEvent = async (id: string, keepPending = false) => {
    const r = await call('GET', routePath('sandbox.attempts', { eventId: id }), { key });
    if (r.status !== 200) throw new Error(`attempts of ${id}: ${r.status}`);
    const attempts = (r.body.attempts as Array<{ attempt: number; webhookId: string; sentAt?: string; status: number | null; outcome: string; error?: string }>)
      .filter((a) => a.webhookId === webhookId && a.outcome !== 'pending')
      .map((a) => ({ attempt: a.attempt, sentAtMs: Date.parse(a.sentAt!), status: a.status, ...(a.error ? { error: a.error } : {}) }));
    if (keepPending || r.body.state !== 'pending') final.set(id, { eventId: id, state: r.body.state, attempts });
  };
  const deadline = drainStart + timeoutMs;
  for (;;) {
    await pool(ids.filter((id) => !final.has(id)), 8, (id) => readEvent(id));
    if (final.size === ids.length || Date.now() > deadline) break;
    await sleep(200);
  }
  const drainMs = Date.now() - drainStart;
  // Final states do not change; what is still pending at the deadline is kept as it stands.
  await pool(ids.filter((id) => !final.has(id)), 8, (id) => readEvent(id, true));
  return { final, drainMs };
}
