import type { z } from 'zod';
import type { Fault, HttpSeam } from './fault.ts';

// The one shape of the HTTP seams, after Toxiproxy's `Pipe(stub)`: a toxic sits in the path of
// one exchange and gets the request and the rest of the path (`next`); it may change the request
// on its way (upstream), change or replace the response on its way back (downstream), delay
// either, or answer in place of the rest. The receiver's faults, the mutants' proxy and the
// webhook sender's wire faults are all this function of Fetch API objects; each host turns its
// own I/O into a Request and a `next` once, at its door.

/** The rest of the path: the real handler, the next toxic, or the wire. */
export type Next = (request: Request) => Promise<Response>;

/** One toxic: a `(request, next) => response` step of an exchange. */
export type Toxic = (request: Request, next: Next) => Promise<Response>;

/**
 * Which way of the exchange the fault changes, as Toxiproxy's `stream`: upstream is the request
 * on its way to the handler (a rewritten path, a dropped header, a re-serialized body), downstream
 * the response on its way back (a status, a body, a delay, a dropped connection).
 */
export type Direction = 'upstream' | 'downstream';

/** A fault at an HTTP seam: `install` builds a fresh toxic from its config and the host's environment. */
export interface HttpFault<S extends z.ZodType = z.ZodType, E = void, N extends string = string> extends Fault<S, E extends void ? [] : [env: E], Toxic, N> {
  readonly seam: HttpSeam;
  readonly direction: Direction;
}

/** Toxics in order: the first sees the request first and the response last. */
export function chain(toxics: readonly Toxic[]): Toxic {
  return toxics.reduceRight<Toxic>((inner, t) => (req, next) => t(req, (r) => inner(r, next)), (req, next) => next(req));
}

/** A small seeded generator (mulberry32): the same seed draws the same shares, so a run replays. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The toxic applied to a share `toxicity` (0..1) of the requests, drawn from `seed`; the others
 * pass untouched, as Toxiproxy's toxicity. At 1 (the default) every request is touched and no
 * draw is made, so a fault without a toxicity behaves exactly as before toxicity existed.
 */
export function withToxicity(toxic: Toxic, toxicity = 1, seed = 1): Toxic {
  if (toxicity >= 1) return toxic;
  if (toxicity <= 0) return (req, next) => next(req);
  const draw = seeded(seed);
  return (req, next) => (draw() < toxicity ? toxic(req, next) : next(req));
}
