// MISTAKE: handles every event type the spec lists today, but validates `type` against that
// closed list and throws on anything else (500). The spec leaves the change policy open, so
// the first new event type would be retried for 26 hours and then lost.
import { EVENT_TYPES } from '../../../contract/index.ts';
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

const KNOWN = new Set<string>(EVENT_TYPES);

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    if (!verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret).ok) return { status: 401 };
    const { type } = JSON.parse(rawBody) as { type: string };
    if (!KNOWN.has(type)) return { status: 500, body: { error: `unknown event type ${type}` } };
    return { status: 200, body: { received: true } };
  }, o.port);
await runIfMain(import.meta.url, start);
