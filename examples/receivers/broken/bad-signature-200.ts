// MISTAKE: verifies, logs a warning when the signature is wrong, and answers 200 anyway
// ("we don't want the sender to retry"), so forged deliveries are accepted.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    const v = verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret);
    if (!v.ok && v.reason !== 'missing') return { status: 200, body: { received: true, warning: 'signature did not verify' } };
    if (!v.ok) return { status: 401 };
    return { status: 200, body: { received: true } };
  }, o.port);
await runIfMain(import.meta.url, start);
