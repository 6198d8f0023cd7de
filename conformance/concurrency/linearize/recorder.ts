import type { CheckContext } from '../../check.ts';
import { TransportError } from '../../http.ts';
import type { Exchanges, TimedExchange } from '../exchanges.ts';

// Records the exchanges of a storm (exchanges.ts) as they happen: invoke before the request leaves,
// complete when its answer is read. A 429 is kept as it came (not retried): it was not
// accepted. A request that got no answer (timeout, reset) stays without `complete`: it may or
// may not have taken effect, and the checker treats it so.

export class Recorder {
  readonly history: Exchanges = [];

  /** The key the requests carry: the one a `together` block reserved room on. */
  private key: string | undefined;

  constructor(private readonly ctx: CheckContext) {}

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

  async call(client: number, kind: string, method: string, path: string, body?: unknown): Promise<TimedExchange> {
    const op: TimedExchange = { id: this.history.length, client, kind, invoke: performance.now(), request: { method, path, partner: 1, ...(body !== undefined ? { body } : {}) } };
    this.history.push(op);
    try {
      const r = await this.ctx.api(method, path, { ...(this.key ? { key: this.key } : {}), ...(body !== undefined ? { body } : {}), retry429: false });
      op.complete = performance.now();
      op.response = { status: r.status, json: r.json };
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
    }
    return op;
  }
}

export const accepted = (op: TimedExchange) => !!op.response && op.response.status >= 200 && op.response.status < 300;

export function field<T = unknown>(op: TimedExchange, name: string): T | undefined {
  const j = op.response?.json;
  return j && typeof j === 'object' ? ((j as Record<string, unknown>)[name] as T | undefined) : undefined;
}
