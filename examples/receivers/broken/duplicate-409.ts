// MISTAKE: treats a repeated event id as a client error. The spec says the same event may be
// delivered more than once; a 409 makes the sender retry a delivery that already worked.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) => {
  const seen = new Set<string>();
  return serve(({ headers, rawBody }) => {
    if (!verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret).ok) return { status: 401 };
    const { id } = JSON.parse(rawBody) as { id: string };
    if (seen.has(id)) return { status: 409, body: { error: 'already processed' } };
    seen.add(id);
    return { status: 200, body: { received: true } };
  }, o.port);
};
await runIfMain(import.meta.url, start);
