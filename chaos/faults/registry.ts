import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { faultNames as namesAt, getFault as getAt, type Fault } from '../../faults/index.ts';

// The receiver's seam of the one fault interface (faults/): each fault lives in one module,
// registers itself by name with a typed, validated config, and is chosen per attempt by a plan
// rule; the receiver installs it on that attempt's request and response.

export interface FaultContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The delivery deadline the spec gives the receiver (part 6, rule 1), in ms. */
  deadlineMs: number;
  /**
   * Called just before a held fault writes its status line: the receiver commits the answer
   * first, as it does for answers known in advance, so a crash between the answer leaving and
   * the fault returning cannot lose a status the sender saw.
   */
  answering?(outcome: FaultOutcome): Promise<void>;
}

/** What the receiver did, as recorded: an HTTP status, or null when no response was sent. */
export interface FaultOutcome {
  status: number | null;
  response: string;
}

/** A receiver fault: `install` answers one delivery attempt (or does not) and says what it did. */
export interface ReceiverFault<S extends z.ZodType = z.ZodType> extends Fault<S, [FaultContext], Promise<FaultOutcome>> {
  readonly seam: 'receiver';
  /**
   * The outcome, when the fault answers at once and it is known before applying: the receiver
   * then records the attempt complete in one row (one statement instead of two per delivery).
   */
  planned?(config: z.infer<S>): FaultOutcome | null;
}

/** The receiver's faults, as plans name them (faults of other seams are not the receiver's). */
export const getFault = (name: string): ReceiverFault | undefined => getAt(name, ['receiver']) as ReceiverFault | undefined;

/** The receiver's fault names, sorted. */
export const faultNames = (): string[] => namesAt(['receiver']).sort();

export { setTimeout as sleep } from 'node:timers/promises';

/** Resolves when the peer goes away, so held responses stop waiting for nobody. */
export function peerGone(ctx: FaultContext): Promise<void> {
  return new Promise((r) => {
    if (ctx.res.destroyed || ctx.res.writableEnded) return r();
    ctx.res.once('close', () => r());
  });
}

/** Sleep for ms, or less when the sender hangs up first; tells which happened. */
export async function hold(ctx: FaultContext, ms: number): Promise<'elapsed' | 'peer-closed'> {
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    new Promise<'elapsed'>((res) => (timer = setTimeout(() => res('elapsed'), ms))),
    peerGone(ctx).then(() => 'peer-closed' as const),
  ]);
  clearTimeout(timer);
  return r;
}

export const OK_BODY = '{"received":true}';
