// MISTAKE: verifies the signature over JSON.stringify(JSON.parse(body)) — what a framework's
// JSON body parser leaves you with — instead of the raw bytes that were signed.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    const event = JSON.parse(rawBody);
    const v = verifyWebhook(JSON.stringify(event), headers['x-service-signature'] as string | undefined, o.secret);
    return v.ok ? { status: 200, body: { received: true } } : { status: 401 };
  }, o.port);
await runIfMain(import.meta.url, start);
