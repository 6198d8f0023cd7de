import { chain, withToxicity, type Installed, type Toxic } from '../../faults/index.ts';
import { RESPONSE_EXCERPT, type AttemptResult, type Sender } from './sender.ts';
import type { SenderEnv, SenderFault } from './faults/types.ts';

// The webhook sender's door for its wire faults (faults/http.ts): an attempt becomes a Fetch
// Request, the toxics run on it with the real send as `next`, and what they answer becomes the
// attempt's result again. Only a sandbox given such a fault (`--fault hook-sender-timeout` …)
// builds one; the dispatcher's own path sends without any Request object.

/** One attempt as the dispatcher makes it, and how to sign another body for it. */
export interface Exchange {
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** 1: the first delivery; 2..6: the retries. */
  attempt: number;
  /** The headers of this attempt for another body and event id (the row's secret and scheme). */
  sign(body: string, eventId: string): Record<string, string>;
}

/** What went on the wire and what came back. */
export interface Sent {
  result: AttemptResult;
  /** The headers the wire saw last (the signature the log records). */
  headers: Record<string, string>;
}

/** Sends one attempt through the wire faults. */
export type WireFaults = (send: Sender, x: Exchange) => Promise<Sent>;

const exchanges = new WeakMap<Request, Exchange>();
const results = new WeakMap<Response, AttemptResult>();

/** A failed attempt with no answer (timeout, refused, reset), as a toxic says it. */
export function failed(error: string): Response {
  const res = Response.error();
  results.set(res, { status: null, error });
  return res;
}

/** What a toxic is handed: the attempt number and a re-signing, looked up by the request it received. */
const env: SenderEnv = {
  attempt: (req) => exchanges.get(req)?.attempt ?? 1,
  sign(req, body, eventId) {
    const x = exchanges.get(req);
    if (!x) throw new Error('sign: a request the sender door did not make');
    const out = new Request(req.url, { method: req.method, headers: x.sign(body, eventId), body, signal: req.signal });
    exchanges.set(out, x);
    return out;
  },
};

/** The requests whose send is under way (see `wireFaults`). */
const inFlight = new Set<Request>();

const NO_BODY = new Set([204, 205, 304]);

/** An attempt's result as a Response (the exact result is kept beside it, for an answer a toxic passes on). */
function toResponse(r: AttemptResult): Response {
  if (r.status === null) return failed(r.error ?? 'no answer');
  const res = new Response(NO_BODY.has(r.status) ? null : (r.response ?? ''), { status: r.status >= 200 && r.status <= 599 ? r.status : 599 });
  results.set(res, r);
  return res;
}

async function toResult(res: Response): Promise<AttemptResult> {
  const kept = results.get(res);
  if (kept) return kept;
  if (res.type === 'error') return { status: null, error: 'no answer' };
  return { status: res.status, response: (await res.text()).slice(0, RESPONSE_EXCERPT) };
}

/** The wire faults among a sandbox's validated settings as one door, or undefined when there are none. */
export function wireFaults(settings: ReadonlyArray<Installed<SenderFault>>): WireFaults | undefined {
  if (!settings.length) return undefined;
  const toxic: Toxic = chain(settings.map((s) => withToxicity(s.fault.install(s.config, env), s.toxicity, s.seed)));
  return async (send, x) => {
    const req = new Request(x.url, { method: 'POST', headers: x.headers, body: x.body, signal: x.signal });
    exchanges.set(req, x);
    let headers = x.headers;
    const res = await toxic(req, async (r) => {
      headers = Object.fromEntries(r.headers);
      // `r` is pinned until its send ends: a Request holds the controller its signal follows (a
      // toxic's deadline), and the source reaches that controller only by a weak reference.
      // Collected mid-send, the abort never arrives and the attempt hangs (seen in CI under GC
      // pressure); reading `r` after the await does not keep it.
      inFlight.add(r);
      try {
        return toResponse(await send(r.url === req.url ? x.url : r.url, await r.text(), headers, r.signal));
      } finally {
        inFlight.delete(r);
      }
    });
    return { result: await toResult(res), headers };
  };
}
