// MISTAKE: only checks a signature when one is present; no header means "trusted".
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    const header = headers['x-service-signature'] as string | undefined;
    if (header && !verifyWebhook(rawBody, header, o.secret).ok) return { status: 401 };
    return { status: 200, body: { received: true } };
  }, o.port);
await runIfMain(import.meta.url, start);
