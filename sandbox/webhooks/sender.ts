import { Agent, request } from 'undici';

// One HTTP attempt of a delivery. undici's Agent pools keep-alive connections per origin,
// which is what lets the dispatcher sustain thousands of deliveries a second.

export interface AttemptResult {
  /** HTTP status, or null when no response arrived (timeout, refused, reset). */
  status: number | null;
  error?: string;
  /** The first RESPONSE_EXCERPT bytes of the answer's body (UTF-8, possibly cut mid-character). */
  response?: string;
}

export const RESPONSE_EXCERPT = 256;

export type Sender = (url: string, body: string, headers: Record<string, string>, signal: AbortSignal) => Promise<AttemptResult>;

export interface HttpSenderOptions {
  /** Connections per origin; the dispatcher's per-endpoint bound should not exceed it. */
  connectionsPerOrigin?: number;
  timeoutMs: number;
}

export function httpSender(opts: HttpSenderOptions): { send: Sender; close(): Promise<void> } {
  const agent = new Agent({
    connections: opts.connectionsPerOrigin ?? 16,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    connectTimeout: opts.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  const send: Sender = async (url, body, headers, signal) => {
    // One deadline for the whole attempt (connect, headers and body), not per phase. A plain
    // controller and timer: AbortSignal.timeout/any cost several times more per request.
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), ac.abort()), opts.timeoutMs);
    const onStop = () => ac.abort();
    signal.addEventListener('abort', onStop, { once: true });
    try {
      const res = await request(url, { method: 'POST', body, headers, dispatcher: agent, signal: ac.signal });
      // Only the first bytes are kept (for the delivery log); the rest is drained unread.
      let response = '';
      for await (const chunk of res.body) {
        response += (chunk as Buffer).toString('utf8');
        if (response.length >= RESPONSE_EXCERPT) break;
      }
      await res.body.dump().catch(() => undefined);
      return { status: res.statusCode, response: response.slice(0, RESPONSE_EXCERPT) };
    } catch (e) {
      if (timedOut) return { status: null, error: `no answer within ${opts.timeoutMs} ms` };
      if (signal.aborted) return { status: null, error: 'aborted: dispatcher stopping' };
      const err = e as Error & { code?: string };
      return { status: null, error: err.code ? `${err.code}: ${err.message}` : err.message };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onStop);
    }
  };
  return { send, close: () => agent.close() };
}
