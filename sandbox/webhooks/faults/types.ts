import type BetterSqlite3 from 'better-sqlite3';
import type { z } from 'zod';
import type { Fault, HttpFault } from '../../../faults/index.ts';
import type { Registration } from '../subscriptions.ts';

// The webhook sender's two seams of the one fault interface (faults/), each a deliberate bug
// never on unless a test or an explicit `lendcheck sandbox --fault NAME` asks for it:
// - 'webhook-sender', the wire: a toxic, `(request, next) => response` over one delivery attempt
//   like every HTTP seam of the house (faults/http.ts), run by the sender's door
//   (../toxic-door.ts): a short deadline, a body signed apart from the bytes sent, a new id per retry.
// - 'webhook-logic', the decisions no single attempt shows: who gets an event (the fan-out), when
//   a failed attempt is retried, which subscriptions a caller's GET/DELETE /webhooks reaches.
//   These happen before an attempt exists or between attempts, so there is no exchange to wrap;
//   such a fault's `install` returns the effects the dispatcher and the routes consult.

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

export interface HookFaultEffects {
  /**
   * The subscriptions an event goes to. `own` are its partner's live subscriptions (the right
   * answer is those of them that listed the type, created before it); `all` every partner's.
   */
  route?(e: FanOutEvent, own: FanOutSub[], all: () => FanOutSub[]): FanOutSub[];
  /** The retry delays (business ms) in place of the configured ones. */
  retryDelaysMs?(configured: readonly number[]): readonly number[];
  /** The subscriptions GET /webhooks shows the caller (right: `list(caller)`, its own). */
  listed?(caller: string, list: (partnerId: string) => Registration[]): Registration[];
  /** The partner whose subscription DELETE /webhooks/{webhookId} looks in (right: the caller). */
  deleteAs?(caller: string, webhookId: string): string;
}

export interface HookFaultEnv {
  db: BetterSqlite3.Database;
}

/** A fault of the sender's logic: `install` turns its config and the sandbox's database into effects. */
export interface HookFault<S extends z.ZodType = z.ZodType, N extends string = string> extends Fault<S, [HookFaultEnv], HookFaultEffects, N> {
  readonly seam: 'webhook-logic';
  readonly breaks: string;
}

/** Defines a fault of the sender's logic (listed in sandbox/faults/index.ts): its name's literal and its config's type are kept. */
export const hookFault = <const N extends string, S extends z.ZodType>(fault: Omit<HookFault<S, N>, 'seam'>): HookFault<S, N> => ({ ...fault, seam: 'webhook-logic' });

/** What the sender's door hands a wire fault, looked up by the request the toxic received. */
export interface SenderEnv {
  /** The attempt number of this delivery (1: the first, 2..6: the retries). */
  attempt(req: Request): number;
  /** The same attempt with another body and event id, signed as the sender signs (the row's secret and scheme). */
  sign(req: Request, body: string, eventId: string): Request;
}

/** A fault of the sender's wire: a toxic over one delivery attempt. */
export interface SenderFault<S extends z.ZodType = z.ZodType, N extends string = string> extends HttpFault<S, SenderEnv, N> {
  readonly seam: 'webhook-sender';
  readonly breaks: string;
}

/** Defines a wire fault of the sender (listed in sandbox/faults/index.ts). */
export const senderFault = <const N extends string, S extends z.ZodType>(fault: Omit<SenderFault<S, N>, 'seam'>): SenderFault<S, N> => ({ ...fault, seam: 'webhook-sender' });

/** The right fan-out, which the routing faults start from. */
export const subscribed = (e: FanOutEvent, subs: FanOutSub[]): FanOutSub[] => subs.filter((s) => e.seq > s.after_seq && s.events.includes(e.type));
