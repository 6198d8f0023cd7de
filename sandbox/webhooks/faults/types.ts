import type BetterSqlite3 from 'better-sqlite3';
import type { z } from 'zod';
import type { Registration } from '../subscriptions.ts';

// A webhook-sender fault: a deliberate bug of the dispatcher (sandbox/webhooks/dispatcher.ts),
// so the suites can be shown to catch it. Same rules as the endpoint faults (sandbox/faults/):
// one small module per fault, registered by name, a zod config whose every field has a default,
// never on unless a test or an explicit `lendcheck sandbox --fault NAME` asks for it. A sender
// fault does not wrap resolvers: it returns effects the dispatcher consults at its few seams.

/** An outbox event as the fan-out sees it. */
export interface FanOutEvent {
  seq: number;
  id: string;
  partner_id: string;
  type: string;
}

/** A live subscription as the fan-out sees it. */
export interface FanOutSub {
  id: string;
  partner_id: string;
  events: string[];
  after_seq: number;
}

/** What one attempt puts on the wire: the bytes sent, the bytes the signature is computed over, the event id in the signature headers. */
export interface WireBody {
  sent: string;
  signed: string;
  eventId: string;
}

export interface HookFaultEffects {
  /**
   * The subscriptions an event goes to. `own` are its partner's live subscriptions (the right
   * answer is those of them that listed the type, created before it); `all` every partner's.
   */
  route?(e: FanOutEvent, own: FanOutSub[], all: () => FanOutSub[]): FanOutSub[];
  /** The body of attempt `attempt` (1: the first delivery, 2..6: the retries). */
  body?(payload: string, eventId: string, attempt: number): WireBody;
  /** The retry delays (business ms) in place of the configured ones. */
  retryDelaysMs?(configured: readonly number[]): readonly number[];
  /** Real ms the sender waits for an answer, in place of the 5 s deadline. */
  timeoutMs?: number;
  /** The subscriptions GET /webhooks shows the caller (right: `list(caller)`, its own). */
  listed?(caller: string, list: (partnerId: string) => Registration[]): Registration[];
  /** The partner whose subscription DELETE /webhooks/{webhookId} looks in (right: the caller). */
  deleteAs?(caller: string, webhookId: string): string;
}

export interface HookFaultEnv {
  db: BetterSqlite3.Database;
}

export interface HookFaultModule<S extends z.ZodTypeAny = z.ZodTypeAny> {
  /** The registry key: `--fault <name>`, `SandboxOptions.faults[].name`. */
  readonly name: string;
  /** One sentence: the bug, as a reviewer would describe it. */
  readonly description: string;
  /** The promise of part 6 the fault breaks (what should catch it). */
  readonly breaks: string;
  readonly config: S;
  effects(config: z.infer<S>, env: HookFaultEnv): HookFaultEffects;
}

/** The right fan-out, which the routing faults start from. */
export const subscribed = (e: FanOutEvent, subs: FanOutSub[]): FanOutSub[] => subs.filter((s) => e.seq > s.after_seq && s.events.includes(e.type));
