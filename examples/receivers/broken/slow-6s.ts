// MISTAKE: does the slow work (here 6 s) before answering, so every answer misses the 5 s
// deadline and the sender retries deliveries that were in fact processed.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(async ({ headers, rawBody }) => {
    await new Promise((r) => setTimeout(r, 6_000)); // "update the ledger, email the user"
    if (!verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret).ok) return { status: 401 };
    return { status: 200, body: { received: true } };
  }, o.port);
await runIfMain(import.meta.url, start);
