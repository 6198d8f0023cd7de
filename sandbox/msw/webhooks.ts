import { RESPONSE_EXCERPT, type AttemptResult, type Sender } from '../webhooks/sender.ts';

// The webhook sender of the msw way: each signed attempt is a fetch Request, handed straight
// to the test's handler when one is set (onWebhook), else sent with global fetch, which msw
// intercepts for a partner URL it has a handler for. The spec's 5 s answer deadline is kept
// in real time (a handler slower than that is a failed attempt, retried on the test clock).

export type WebhookHandler = (req: Request) => Response | Promise<Response>;

export function mswSender(handler: () => WebhookHandler | undefined, timeoutMs: number): Sender {
  return async (url, body, headers, signal): Promise<AttemptResult> => {
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), ac.abort()), timeoutMs);
    const onStop = () => ac.abort();
    signal.addEventListener('abort', onStop, { once: true });
    const late = new Promise<never>((_, reject) => ac.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    try {
      const req = new Request(url, { method: 'POST', body, headers, signal: ac.signal });
      const h = handler();
      const res = await Promise.race([h ? Promise.resolve(h(req)) : fetch(req), late]);
      const text = await Promise.race([res.text(), late]);
      return { status: res.status, response: text.slice(0, RESPONSE_EXCERPT) };
    } catch (e) {
      if (timedOut) return { status: null, error: `no answer within ${timeoutMs} ms` };
      if (signal.aborted) return { status: null, error: 'aborted: dispatcher stopping' };
      return { status: null, error: (e as Error).message };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onStop);
    }
  };
}
