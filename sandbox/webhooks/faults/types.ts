import type BetterSqlite3 from 'better-sqlite3';
import type { z } from 'zod';
import { registerFault, type Fault } from '../../../faults/index.ts';
import type { Registration } from '../subscriptions.ts';

// The webhook sender's seam of the one fault interface (faults/): a deliberate bug of the
// dispatcher (sandbox/webhooks/dispatcher.ts) and the subscription routes, never on unless a
// test or an explicit `lendcheck sandbox --fault NAME` asks for it. A sender fault does not wrap
// resolvers: its `install` returns effects the dispatcher consults at its few places.

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

/** A webhook-sender fault: `install` turns its config and the sandbox's database into effects. */
export interface HookFault<S extends z.ZodType = z.ZodType> extends Fault<S, [HookFaultEnv], HookFaultEffects> {
  readonly seam: 'webhook-sender';
  readonly breaks: string;
}

/** Registers a sender fault: a module gives the rest, and its config's type is read from the schema. */
export const hookFault = <S extends z.ZodType>(fault: Omit<HookFault<S>, 'seam'>): HookFault<S> => registerFault({ ...fault, seam: 'webhook-sender' });

/** The right fan-out, which the routing faults start from. */
export const subscribed = (e: FanOutEvent, subs: FanOutSub[]): FanOutSub[] => subs.filter((s) => e.seq > s.after_seq && s.events.includes(e.type));
