import type { z } from 'zod';
import type { HttpFault } from '../../faults/index.ts';

// The receiver's seam of the one fault interface (faults/): each fault is one module whose
// `install` builds a toxic, `(request, next) => response` over Fetch API objects like every HTTP
// seam of the house (faults/http.ts); `next` is the receiver's own answer (200). What the Fetch
// API cannot say by itself (a dropped connection, the line recorded for the attempt) a toxic says
// with `answer` and `drop` below, and the receiver's door (door.ts) acts on it at the socket.
// The receiver's faults are listed in one typed registry (index.ts), chosen per attempt by a plan
// rule, whose `probability` is the toxicity (the share of the attempts it selects the fault takes).

/** What the receiver's door hands a fault when it installs it. */
export interface ReceiverEnv {
  /** The delivery deadline the spec gives the receiver (part 6, rule 1), in ms. */
  deadlineMs: number;
}

/** What the receiver did, as recorded: an HTTP status, or null when no response was sent. */
export interface FaultOutcome {
  status: number | null;
  response: string;
}

/** A receiver fault: its toxic answers one delivery attempt (or drops it). */
export interface ReceiverFault<S extends z.ZodType = z.ZodType, N extends string = string> extends HttpFault<S, ReceiverEnv, N> {
  readonly seam: 'receiver';
  /**
   * The outcome, when the fault answers at once and it is known before applying: the receiver
   * then records the attempt complete in one row (one statement instead of two per delivery).
   */
  planned?(config: z.infer<S>): FaultOutcome | null;
}

/** Defines a receiver fault (listed in index.ts); all of them shape the answer, so downstream. */
export const receiverFault = <const N extends string, S extends z.ZodType>(f: Omit<ReceiverFault<S, N>, 'seam' | 'direction'>): ReceiverFault<S, N> => ({
  ...f,
  seam: 'receiver',
  direction: 'downstream',
});

/** How a connection is dropped: a TCP reset, a clean FIN, the socket destroyed, or nothing left to drop (the sender hung up). */
export type DropKind = 'reset' | 'close' | 'destroy' | 'gone';

/** What a toxic says about its answer beyond the Fetch API (read by the door). */
export interface Note {
  /** The line recorded for the attempt. */
  response: string;
  /** A dropped connection instead of an answer. */
  drop?: DropKind;
  /** A body sent over time: written as it comes, and the line recorded once it ends. */
  final?: Promise<string>;
}

const notes = new WeakMap<Response, Note>();

/** Tags an answer with the line recorded for it (and, for a trickled body, the line once it ends). */
export function answer(res: Response, response: string, final?: Promise<string>): Response {
  notes.set(res, { response, ...(final ? { final } : {}) });
  return res;
}

/** No answer: the connection is dropped this way (a network error, in Fetch terms). */
export function drop(kind: DropKind, response: string): Response {
  const res = Response.error();
  notes.set(res, { response, drop: kind });
  return res;
}

/** The door's reading of a toxic's answer. */
export const noteOf = (res: Response): Note | undefined => notes.get(res);

export { setTimeout as sleep } from 'node:timers/promises';

/** Sleep for ms, or less when the sender hangs up first (the request's signal); tells which happened. */
export async function hold(signal: AbortSignal, ms: number): Promise<'elapsed' | 'peer-closed'> {
  if (signal.aborted) return 'peer-closed';
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const r = await new Promise<'elapsed' | 'peer-closed'>((res) => {
    timer = setTimeout(() => res('elapsed'), ms);
    onAbort = () => res('peer-closed');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  clearTimeout(timer);
  signal.removeEventListener('abort', onAbort!);
  return r;
}

export const OK_BODY = '{"received":true}';

/** The receiver's own answer to a delivery, which `next` gives a toxic. */
export const okAnswer = (): Response => new Response(OK_BODY, { status: 200, headers: { 'content-type': 'application/json' } });
