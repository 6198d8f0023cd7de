import { verifyWebhook } from 'lendcheck';

// The partner's webhook receiver as a fetch handler (Request in, Response out), so the same
// function serves msw's interception, a node:http server and any framework. It verifies the
// signature over the raw body before anything else (401 when it fails), answers at once, and
// handles each event id once.

export interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export function webhookHandler(secret: string, onEvent: (e: Received) => void): (req: Request) => Promise<Response> {
  const seen = new Set<string>();
  return async (req) => {
    const raw = await req.text();
    const v = verifyWebhook(raw, req.headers.get('x-service-signature') ?? '', secret);
    if (!v.ok) return new Response('bad signature', { status: 401 });
    const e = JSON.parse(raw) as Received;
    if (!seen.has(e.id)) {
      seen.add(e.id);
      onEvent(e);
    }
    return new Response('ok', { status: 200 });
  };
}

/** The planted mistake: a handler that trusts every delivery, signed or not. */
export function trustingHandler(onEvent: (e: Received) => void): (req: Request) => Promise<Response> {
  return async (req) => {
    onEvent(JSON.parse(await req.text()) as Received);
    return new Response('ok', { status: 200 });
  };
}
