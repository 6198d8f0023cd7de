// MISTAKE: switched the timestamp tolerance off ("our clocks drifted once"), so a captured
// delivery can be replayed for ever.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    const v = verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret, { toleranceSeconds: Number.MAX_SAFE_INTEGER });
    return v.ok ? { status: 200, body: { received: true } } : { status: 401 };
  }, o.port);
await runIfMain(import.meta.url, start);
