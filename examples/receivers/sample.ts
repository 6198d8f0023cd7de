// A webhook receiver that passes `lendcheck chaos certify`. Partners: import from 'lendcheck'
// (`import { verifyWebhook } from 'lendcheck'`); inside this repository the path is relative.
import { verifyWebhook, type SignatureScheme } from '../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions, type Handler } from './serve.ts';

export function sampleHandler(secret: string, scheme: SignatureScheme = 't-v1-hmac-sha256', onEvent: (e: { id: string; type: string; data: unknown }) => void = () => {}): Handler {
  // Event ids already taken. In production this is a unique index in your database, written
  // in the same transaction as the effect of the event.
  const processed = new Set<string>();
  return ({ headers, rawBody }) => {
    // 1. Verify over the raw bytes, before parsing, in constant time, inside the replay window.
    //    Pass all the headers: some schemes (Standard Webhooks) sign an id and a timestamp sent beside the signature.
    const v = verifyWebhook(rawBody, headers, secret, { scheme, toleranceSeconds: 300 });
    if (!v.ok) return { status: 401, body: { error: { code: 'authentication_failed', message: `signature ${v.reason}` } } };
    let event: { id?: unknown; type?: unknown; data?: unknown };
    try {
      event = JSON.parse(rawBody);
    } catch {
      return { status: 400, body: { error: { code: 'invalid_request', message: 'body is not JSON' } } };
    }
    if (typeof event.id !== 'string' || typeof event.type !== 'string') return { status: 400, body: { error: { code: 'invalid_request', message: 'id and type are required' } } };
    // 2. A repeat is acknowledged, not processed again and not refused.
    if (processed.has(event.id)) return { status: 200, body: { received: true, duplicate: true } };
    processed.add(event.id);
    // 3. Acknowledge at once; the work happens after the answer, so it never risks the 5 s.
    //    Types this receiver does not know are acknowledged too: new ones may appear.
    const e = { id: event.id, type: event.type, data: event.data };
    setImmediate(() => onEvent(e));
    return { status: 200, body: { received: true } };
  };
}

export const start = (o: ExampleOptions) => serve(sampleHandler(o.secret, o.scheme), o.port);
await runIfMain(import.meta.url, start);
